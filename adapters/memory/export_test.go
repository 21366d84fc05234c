package memory

// StoredScreenshots counts the images s holds, of every report, so the
// port suite can tell a deleted screenshot from one only out of reach.
func (s *ReportStore) StoredScreenshots() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, shots := range s.shots {
		n += len(shots.Kinds())
	}
	return n
}
