package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"

	"github.com/pinsight/pinsight/domain/fault"
)

// PasswordParams are the argon2id costs. bcrypt is not used: it truncates
// passwords at 72 bytes.
type PasswordParams struct {
	MemoryKiB uint32
	Time      uint32
	Threads   uint8
}

// DefaultPasswordParams follow OWASP's argon2id recommendation
// (19 MiB, 2 iterations, 1 thread).
var DefaultPasswordParams = PasswordParams{MemoryKiB: 19 * 1024, Time: 2, Threads: 1}

// PasswordHasher hashes and verifies passwords. *Passwords is the one the
// server wires; the interface lets transport tests choose its answers.
type PasswordHasher interface {
	// Hash returns the PHC string of an argon2id hash of password.
	// Errors: ErrPasswordsBusy, the context's.
	Hash(ctx context.Context, password string) (string, error)
	// Verify reports whether password matches phc, a string made by Hash.
	// An empty or malformed phc (an unknown user, a user without a
	// password) matches nothing but costs as much as a real one, so the
	// answer time tells nothing. Errors: ErrPasswordsBusy, the context's.
	Verify(ctx context.Context, phc, password string) (bool, error)
}

// ErrPasswordsBusy is returned when every password slot stayed taken for
// the whole wait: a fault.Busy whose RetryAfter is PasswordRetryAfter.
var ErrPasswordsBusy = fault.NewRetry(fault.Busy, "accounts: too many password checks at once: retry shortly", PasswordRetryAfter)

// PasswordRetryAfter is the wait before a retry that ErrPasswordsBusy
// suggests: a verification takes tens of milliseconds, so slots free up quickly.
const PasswordRetryAfter = time.Second

// DefaultPasswordWait is how long a request waits for a password slot.
const DefaultPasswordWait = time.Second

// PasswordLimits bound the work of argon2id at any moment: each run holds
// PasswordParams.MemoryKiB (19 MiB by default), so Concurrent runs hold at
// most Concurrent times that.
type PasswordLimits struct {
	// Concurrent is how many hashes and verifications run at once
	// (0: twice GOMAXPROCS).
	Concurrent int
	// Wait is how long a request waits for a free slot before
	// ErrPasswordsBusy (0: DefaultPasswordWait).
	Wait time.Duration
}

// Passwords hashes and verifies passwords with argon2id, at most
// PasswordLimits.Concurrent at a time: beyond, a request waits up to
// PasswordLimits.Wait, then gets ErrPasswordsBusy instead of queueing
// without bound. It is safe for concurrent use.
type Passwords struct {
	params        PasswordParams
	slots         chan struct{}
	wait          time.Duration
	hashes        atomic.Int64
	verifications atomic.Int64
	refused       atomic.Int64
}

// PasswordStats count a Passwords' work since it was made.
type PasswordStats struct {
	Hashes        int64 // argon2id hashes of new passwords
	Verifications int64 // argon2id verifications, decoys for missing hashes included
	Refused       int64 // requests that got ErrPasswordsBusy
}

// NewPasswords returns a hasher with the given costs and limits.
func NewPasswords(params PasswordParams, limits PasswordLimits) *Passwords {
	if limits.Concurrent <= 0 {
		limits.Concurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if limits.Wait <= 0 {
		limits.Wait = DefaultPasswordWait
	}
	return &Passwords{params: params, slots: make(chan struct{}, limits.Concurrent), wait: limits.Wait}
}

const (
	saltLen = 16
	hashLen = 32
)

// decoySalt salts the verification run when there is no hash to check.
var decoySalt = make([]byte, saltLen)

// Hash implements PasswordHasher.
func (p *Passwords) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	release, err := p.acquire(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	p.hashes.Add(1)
	pp := p.params
	sum := argon2.IDKey([]byte(password), salt, pp.Time, pp.MemoryKiB, pp.Threads, hashLen)
	enc := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, pp.MemoryKiB, pp.Time, pp.Threads, enc.EncodeToString(salt), enc.EncodeToString(sum)), nil
}

// Verify implements PasswordHasher: whatever phc holds, it runs argon2id
// once (with the costs phc records, else the configured ones) and compares
// in constant time.
func (p *Passwords) Verify(ctx context.Context, phc, password string) (bool, error) {
	release, err := p.acquire(ctx)
	if err != nil {
		return false, err
	}
	defer release()
	p.verifications.Add(1)
	pp, salt, want, ok := parsePHC(phc)
	if !ok {
		_ = argon2.IDKey([]byte(password), decoySalt, p.params.Time, p.params.MemoryKiB, p.params.Threads, hashLen)
		return false, nil
	}
	got := argon2.IDKey([]byte(password), salt, pp.Time, pp.MemoryKiB, pp.Threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// Stats returns the work done so far (for metrics and tests).
func (p *Passwords) Stats() PasswordStats {
	return PasswordStats{Hashes: p.hashes.Load(), Verifications: p.verifications.Load(), Refused: p.refused.Load()}
}

// Saturation reports the slots in use and the pool size (for metrics).
func (p *Passwords) Saturation() (inUse, size int) { return len(p.slots), cap(p.slots) }

// acquire takes a slot, waiting up to p.wait; release gives it back.
func (p *Passwords) acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-p.slots }
	select {
	case p.slots <- struct{}{}:
		return release, nil
	default:
	}
	t := time.NewTimer(p.wait)
	defer t.Stop()
	select {
	case p.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		p.refused.Add(1)
		return nil, ErrPasswordsBusy
	}
}

// parsePHC reads a PHC string made by Hash; ok is false when it is not one.
func parsePHC(phc string) (pp PasswordParams, salt, sum []byte, ok bool) {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return pp, nil, nil, false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &pp.MemoryKiB, &pp.Time, &pp.Threads); err != nil || pp.Time == 0 || pp.Threads == 0 {
		return pp, nil, nil, false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(parts[4])
	sum, err2 := enc.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(sum) == 0 {
		return pp, nil, nil, false
	}
	return pp, salt, sum, true
}
