package reports

import "time"

// SetClock makes rs read the time from now.
func SetClock(rs *Reports, now func() time.Time) { rs.now = now }
