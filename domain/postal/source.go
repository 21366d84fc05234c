package postal

import (
	"strings"
)

// Kinds of dataset source.
const (
	// SourceEmbedded is the official snapshot compiled into the binary.
	SourceEmbedded = "embedded"
	// SourceFiles is files named by the operator (a data folder or one flag per file).
	SourceFiles = "files"
	// SourceUnknown is a dataset whose origin was not recorded (imported
	// into a database by a version that did not record it).
	SourceUnknown = "unknown"
)

// Source tells where a dataset was read from and what is known of it.
type Source struct {
	Kind    string       `json:"kind"`              // SourceEmbedded, SourceFiles or SourceUnknown
	Release string       `json:"release,omitempty"` // the directory file's publication date (YYYY-MM-DD); "" when not known
	Files   []SourceFile `json:"files,omitempty"`   // in reading order: the directory first
}

// SourceFile is one file a dataset was read from.
type SourceFile struct {
	Role   string `json:"role"`           // directory, states, districts, legacy_districts or villages
	Name   string `json:"name"`           // the file's base name
	Date   string `json:"date,omitempty"` // its own publication date (YYYY-MM-DD); "" when not known
	Rows   int    `json:"rows"`           // data rows read (malformed ones excluded)
	SHA256 string `json:"sha256"`         // of the file's bytes as stored (compressed or not)
}

// String describes the source in one line, for logs and readiness details.
func (s Source) String() string {
	var b strings.Builder
	switch s.Kind {
	case SourceEmbedded:
		b.WriteString("embedded snapshot")
	case SourceFiles:
		b.WriteString("files")
	default:
		return "not recorded"
	}
	if s.Release != "" {
		b.WriteString(", release " + s.Release)
	} else {
		b.WriteString(", release date not known")
	}
	if len(s.Files) > 0 {
		names := make([]string, len(s.Files))
		for i, f := range s.Files {
			names[i] = f.Name
		}
		b.WriteString(": " + strings.Join(names, ", "))
	}
	return b.String()
}
