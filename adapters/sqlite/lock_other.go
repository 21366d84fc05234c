//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package sqlite

import "os"

// tryLock does nothing on systems without flock(2): there Config.Exclusive
// creates the lock file but does not keep a second process out.
func tryLock(*os.File) (held bool, err error) { return false, nil }
