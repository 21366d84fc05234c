package httpapi_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/pinsight/pinsight/adapters/httpapi"
	"github.com/pinsight/pinsight/adapters/httpapi/internal/apitest"
	"github.com/pinsight/pinsight/digipin/digipintest"
)

func TestDigipinInfo(t *testing.T) {
	res := apitest.Do(t, apitest.NewHandler(t, httpapi.Routes{}), http.MethodGet, "/api/v1/digipin/info", "", "")
	var d httpapi.InfoData
	res.Decode(t, &d)
	if res.Status != http.StatusOK || d.Bounds.MinLatitude != 2.5 || d.Bounds.MaxLongitude != 99.5 {
		t.Fatalf("info = %d %+v", res.Status, d.Bounds)
	}
	if got := strings.Join(d.ValidCharacters, ""); got != "FC98J327K456LMPT" {
		t.Errorf("valid_characters = %q", got)
	}
	if d.Grid[0] != [4]string{"F", "C", "9", "8"} || d.Grid[3] != [4]string{"L", "M", "P", "T"} {
		t.Errorf("grid = %v", d.Grid)
	}
	if len(d.Levels) != 10 || d.Levels[9].ApproxCellSizeM < 3.5 || d.Levels[9].ApproxCellSizeM > 4 {
		t.Errorf("levels = %+v", d.Levels)
	}
	for _, k := range []string{"encode", "decode", "info", "validate", "nearest"} {
		if got, want := d.Endpoints[k], "/digipin/"+k; got != want { // relative to /api/v1, as the seed says
			t.Errorf("endpoints[%q] = %q, want %q", k, got, want)
		}
	}
}

func TestDigipinEncodeDecode(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	tests := []struct {
		name, path, ctype, body string
		wantStatus              int
		wantField, wantCode     string // error field, or the digipin of a success
	}{
		{"json", "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":28.622788,"longitude":77.213033}`, 200, "", "39J-49L-L8T4"},
		{"form", "/api/v1/digipin/encode", apitest.FormType, `latitude=28.622788&longitude=77.213033`, 200, "", "39J-49L-L8T4"},
		{"json sent as form", "/api/v1/digipin/encode", apitest.FormType, `{"latitude":12.9716,"longitude":77.5946}`, 200, "", "4P3-JK8-52C9"},
		{"edge", "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":38.5,"longitude":99.5}`, 200, "", "888-888-8888"},
		{"missing longitude", "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":28.6}`, 400, "longitude", ""},
		{"empty object", "/api/v1/digipin/encode", apitest.JSONType, `{}`, 400, "latitude", ""},
		{"empty body", "/api/v1/digipin/encode", apitest.JSONType, ``, 400, "", ""},
		{"malformed json", "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":`, 400, "body", ""},
		{"latitude out of range", "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":1,"longitude":70}`, 422, "latitude", ""},
		{"longitude out of range", "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":20,"longitude":100}`, 422, "longitude", ""},
		{"string latitude", "/api/v1/digipin/encode", apitest.JSONType, `{"latitude":"0x1C","longitude":70}`, 422, "latitude", ""},
		{"form NaN", "/api/v1/digipin/encode", apitest.FormType, `latitude=NaN&longitude=70`, 422, "latitude", ""},
		{"form missing", "/api/v1/digipin/encode", apitest.FormType, `latitude=20`, 400, "longitude", ""},
		{"decode", "/api/v1/digipin/decode", apitest.JSONType, `{"digipin":"39j49ll8t4"}`, 200, "", "39J-49L-L8T4"},
		{"decode form", "/api/v1/digipin/decode", apitest.FormType, `digipin=39J-49L-L8T4`, 200, "", "39J-49L-L8T4"},
		{"decode bad chars", "/api/v1/digipin/decode", apitest.JSONType, `{"digipin":"39A-49L-L8T0"}`, 422, "digipin", ""},
		{"decode short", "/api/v1/digipin/decode", apitest.JSONType, `{"digipin":"39J-49L"}`, 422, "digipin", ""},
		{"decode missing", "/api/v1/digipin/decode", apitest.JSONType, `{}`, 400, "digipin", ""},
		{"decode number", "/api/v1/digipin/decode", apitest.JSONType, `{"digipin":39}`, 422, "digipin", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Do(t, h, http.MethodPost, tt.path, tt.ctype, tt.body)
			if res.Status != tt.wantStatus {
				t.Fatalf("status = %d (%s %v), want %d", res.Status, res.Message, res.Errors, tt.wantStatus)
			}
			if tt.wantField != "" && len(res.Errors[tt.wantField]) == 0 {
				t.Errorf("errors = %v, want an entry for %q", res.Errors, tt.wantField)
			}
			if tt.wantCode != "" {
				var d struct{ Digipin string }
				res.Decode(t, &d)
				if d.Digipin != tt.wantCode {
					t.Errorf("digipin = %q, want %q", d.Digipin, tt.wantCode)
				}
			}
		})
	}
}

func TestDigipinDecodeGeometry(t *testing.T) {
	res := apitest.Do(t, apitest.NewHandler(t, httpapi.Routes{}), http.MethodPost, "/api/v1/digipin/decode?geometry=true", apitest.JSONType, `{"digipin":"39J-49L-L8T4"}`)
	var d httpapi.DecodeData
	res.Decode(t, &d)
	if d.Latitude != 28.622793 || d.Longitude != 77.213049 {
		t.Errorf("centre = %v, %v; want 28.622793, 77.213049", d.Latitude, d.Longitude)
	}
	if d.Geometry == nil || d.Geometry.Type != "Polygon" || len(d.Geometry.Coordinates[0]) != 5 {
		t.Fatalf("geometry = %+v, want a closed 5-point Polygon", d.Geometry)
	}
	ring := d.Geometry.Coordinates[0]
	if ring[0] != ring[4] || ring[0] != [2]float64{d.Bounds.MinLongitude, d.Bounds.MinLatitude} {
		t.Errorf("ring = %v, bounds %+v", ring, d.Bounds)
	}
}

func TestDigipinValidate(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	var d httpapi.ValidateData
	apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/validate?digipin=39j+49l+l8t4", "", "").Decode(t, &d)
	if !d.Valid || d.Reason != nil || d.Formatted == nil || *d.Formatted != "39J-49L-L8T4" || d.Digipin != "39j 49l l8t4" {
		t.Errorf("valid code: %+v", d)
	}
	res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/validate?digipin=39A-49L-L8T0", "", "")
	d = httpapi.ValidateData{}
	res.Decode(t, &d)
	if res.Status != 200 || d.Valid || d.Reason == nil || !strings.Contains(*d.Reason, "'A', '0'") || !strings.Contains(*d.Reason, "F C 9 8") {
		t.Errorf("invalid code: %d %+v", res.Status, d)
	}
	if res := apitest.Do(t, h, http.MethodGet, "/api/v1/digipin/validate", "", ""); res.Status != 400 || res.Errors["digipin"] == nil {
		t.Errorf("missing digipin = %d %v, want 400 on digipin", res.Status, res.Errors)
	}
}

func TestDigipinBatch(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode/batch", apitest.JSONType,
		`{"items":[{"latitude":28.622788,"longitude":77.213033},{"latitude":1,"longitude":70},{"longitude":70}]}`)
	var d httpapi.BatchData[httpapi.EncodeData]
	res.Decode(t, &d)
	if res.Status != 200 || d.Total != 3 || d.Succeeded != 1 || d.Failed != 2 {
		t.Fatalf("encode batch = %d %+v", res.Status, d)
	}
	if d.Results[0].Result.Digipin != "39J-49L-L8T4" || d.Results[1].Errors["latitude"] == nil || d.Results[2].Errors["latitude"] == nil {
		t.Errorf("encode batch results = %+v", d.Results)
	}
	var dd httpapi.BatchData[httpapi.DecodeData]
	apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/decode/batch", apitest.JSONType, `{"items":["39J49LL8T4","nope"]}`).Decode(t, &dd)
	if dd.Succeeded != 1 || dd.Results[1].Errors["digipin"] == nil {
		t.Errorf("decode batch = %+v", dd)
	}
	items := strings.TrimSuffix(strings.Repeat(`"39J49LL8T4",`, 101), ",")
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/decode/batch", apitest.JSONType, `{"items":[`+items+`]}`); res.Status != 413 {
		t.Errorf("101 items = %d, want 413", res.Status)
	}
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/decode/batch", apitest.FormType, `items=39J49LL8T4`); res.Status != 415 {
		t.Errorf("form batch = %d, want 415", res.Status)
	}
	if res := apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/decode/batch", apitest.JSONType, `{"items":[]}`); res.Status != 422 {
		t.Errorf("empty batch = %d, want 422", res.Status)
	}
}

// TestDigipinReferenceVectors runs the official vectors through HTTP.
func TestDigipinReferenceVectors(t *testing.T) {
	h := apitest.NewHandler(t, httpapi.Routes{})
	for _, v := range digipintest.Encode {
		var d httpapi.DecodeData
		body := fmt.Sprintf(`{"latitude":%s,"longitude":%s}`, v.Lat, v.Lon)
		apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/encode", apitest.JSONType, body).Decode(t, &d)
		if d.Digipin != v.Code {
			t.Errorf("encode %s = %q, want %q", body, d.Digipin, v.Code)
		}
	}
	for _, v := range digipintest.Decode {
		var d httpapi.DecodeData
		apitest.Do(t, h, http.MethodPost, "/api/v1/digipin/decode", apitest.JSONType, fmt.Sprintf(`{"digipin":%q}`, v.Code)).Decode(t, &d)
		lat, _ := strconv.ParseFloat(v.Lat, 64)
		lon, _ := strconv.ParseFloat(v.Lon, 64)
		if d.Latitude != lat || d.Longitude != lon {
			t.Errorf("decode %s = %v,%v, want %v,%v", v.Code, d.Latitude, d.Longitude, lat, lon)
		}
	}
}
