package sqlite

import (
	"database/sql/driver"
	"fmt"
	"time"
)

// stampLayout is how times are stored: RFC 3339 in UTC with exactly six
// fractional digits, so that text order is time order (sorting, min()) and
// the resolution is a PostgreSQL timestamptz's.
const stampLayout = "2006-01-02T15:04:05.000000Z"

// stamp is a time.Time column stored as stampLayout text.
type stamp time.Time

// stampOf is t as it will be stored: in UTC, to the microsecond.
func stampOf(t time.Time) stamp { return stamp(t.UTC().Truncate(time.Microsecond)) }

// Value implements driver.Valuer: bun writes the text.
func (s stamp) Value() (driver.Value, error) {
	return time.Time(s).UTC().Format(stampLayout), nil
}

// Scan implements sql.Scanner.
func (s *stamp) Scan(v any) error {
	var text string
	switch v := v.(type) {
	case string:
		text = v
	case []byte:
		text = string(v)
	default:
		return fmt.Errorf("sqlite: a stored time is %T, want text", v)
	}
	t, err := time.Parse(stampLayout, text)
	if err != nil {
		return fmt.Errorf("sqlite: stored time %q: %w", text, err)
	}
	*s = stamp(t)
	return nil
}

// utc returns the stored time, in UTC.
func (s stamp) utc() time.Time { return time.Time(s).UTC() }
