package postal_test

import (
	"testing"

	"github.com/pinsight/pinsight/domain/postal"
)

func TestNameKey(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Connaught Place", "connaught place"},
		{"  NEW   DELHI  ", "new delhi"},
		{"Bagalur S.O (Krishnagiri)", "bagalur so krishnagiri"},
		{"Dr. B.R. Ambedkar Konaseema", "dr br ambedkar konaseema"},
		{"Manendragarh-Chirmiri-Bharatpur(M C B)", "manendragarh chirmiri bharatpur m c b"},
		{"24 Paraganas North", "24 paraganas north"},
		{"D'Souza Colony", "dsouza colony"},
		{"", ""},
		{"...", ""},
	}
	for _, tt := range tests {
		if got := postal.NameKey(tt.in); got != tt.want {
			t.Errorf("NameKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOfficeKey(t *testing.T) {
	// Every published suffix spelling matches the bare name.
	for _, name := range []string{
		"Talwade", "TALWADE", "talwade",
		"Talwade B.O", "Talwade B.O.", "Talwade BO", "Talwade bo",
		"Talwade S.O", "Talwade S.O.", "Talwade SO",
		"Talwade H.O", "Talwade HO",
		"Talwade GPO", "Talwade G.P.O", "Talwade P.O",
		"  Talwade   B.O  ",
	} {
		if got := postal.OfficeKey(name); got != "talwade" {
			t.Errorf("OfficeKey(%q) = %q, want %q", name, got, "talwade")
		}
	}
	tests := []struct{ in, want string }{
		{"Bagalur S.O (Krishnagiri)", "bagalur krishnagiri"},
		{"Sadar Bazar SO Firozpur", "sadar bazar firozpur"},
		{"Aurangabad BH HO", "aurangabad bh"},
		{"Sector 21, Faridabad S.O", "sector 21 faridabad"},
		{"BO", "bo"}, // a name is never emptied: the first word stays
		{"Ho Chi B.O", "ho chi"},
		{"Boral B.O", "boral"}, // suffixes are whole words only
		{"", ""},
	}
	for _, tt := range tests {
		if got := postal.OfficeKey(tt.in); got != tt.want {
			t.Errorf("OfficeKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestDisplayName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"JAMMU AND KASHMIR", "Jammu and Kashmir"},
		{"THE DADRA AND NAGAR HAVELI AND DAMAN AND DIU", "The Dadra and Nagar Haveli and Daman and Diu"},
		{"Jammu And Kashmir", "Jammu and Kashmir"},
		{"24 PARAGANAS NORTH", "24 Paraganas North"},
		{"Sri Sathya Sai", "Sri Sathya Sai"},
		{"Dr. B.R. Ambedkar Konaseema", "Dr. B.R. Ambedkar Konaseema"},
		{"west siang", "West Siang"},
	}
	for _, tt := range tests {
		if got := postal.DisplayName(tt.in); got != tt.want {
			t.Errorf("DisplayName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
