package sqlite

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// lockSuffix names the sidecar file a DB with Config.Exclusive locks: the
// database's path plus this suffix.
const lockSuffix = "-serve.lock"

// lockPath is the sidecar lock file of the database at path.
func lockPath(path string) string { return path + lockSuffix }

// takeLock opens (creating it owner-only) the sidecar lock file of the
// database at path and takes an exclusive advisory lock on it without
// waiting; it writes this process's id into the file. The lock lasts
// until the returned file is closed, or the process ends. A lock another
// process (or another DB of this one) holds is an error naming its pid.
func takeLock(path string) (*os.File, error) {
	name := lockPath(path)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open the lock file %s: %w", name, err)
	}
	held, err := tryLock(f)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("sqlite: lock %s: %w", name, err)
	}
	if held {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		_ = f.Close()
		holder := "pid unknown"
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n]))); err == nil {
			holder = "pid " + strconv.Itoa(pid)
		}
		return nil, fmt.Errorf("sqlite: another pinsight serve (%s) is using %s; one SQLite file serves one process: run several instances on PostgreSQL (--database-url postgres://...)",
			holder, absPath(path))
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}
