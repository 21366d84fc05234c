package accounts_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pinsight/pinsight/adapters/memory"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/account"
	"github.com/pinsight/pinsight/domain/pagecheck"
	"github.com/pinsight/pinsight/domain/report"
)

var cheapCosts = accounts.PasswordParams{MemoryKiB: 64, Time: 1, Threads: 1}

// TestFailedLoginsCostOneVerification: a wrong password, an unknown
// address and an operator's account without a password (pinsight user
// create) all cost exactly one argon2id verification, so the answer time
// does not tell them apart. Counted, not timed: BenchmarkFailedLogin has
// the times.
func TestFailedLoginsCostOneVerification(t *testing.T) {
	ctx := context.Background()
	pw := accounts.NewPasswords(cheapCosts, accounts.PasswordLimits{})
	as := accounts.New(memory.NewAccountStore(), pw)
	if _, err := as.Register(ctx, "ada@example.com", "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	if _, err := as.CreateUser(ctx, "operator@example.com", ""); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, email, password string }{
		{"wrong password", "ada@example.com", "wrong horse battery"},
		{"account without a password", "operator@example.com", "any password at all"},
		{"account without a password, empty-looking guess", "operator@example.com", " "},
		{"unknown address", "nobody@example.com", "correct horse battery"},
	} {
		before := pw.Stats().Verifications
		if _, err := as.Login(ctx, tt.email, tt.password, ""); !errors.Is(err, account.ErrInvalidCredentials) {
			t.Errorf("%s: err = %v, want invalid credentials", tt.name, err)
		}
		if n := pw.Stats().Verifications - before; n != 1 {
			t.Errorf("%s: %d argon2id verifications, want 1", tt.name, n)
		}
	}
	if _, err := as.Login(ctx, "ada@example.com", "correct horse battery", "laptop"); err != nil {
		t.Errorf("right password: %v", err)
	}
}

func TestRegisterAppliesThePasswordPolicy(t *testing.T) {
	ctx := context.Background()
	pw := accounts.NewPasswords(cheapCosts, accounts.PasswordLimits{})
	as := accounts.New(memory.NewAccountStore(), pw)
	for _, p := range []string{"        ", "\x00\x00\x00\x00\x00\x00\x00\x00", "password1", "ada@example.com"} {
		var ve *account.ValidationError
		if _, err := as.Register(ctx, "ada@example.com", p); !errors.As(err, &ve) || ve.Fields["password"] == nil {
			t.Errorf("Register with %q: err = %v, want a message on password", p, err)
		}
	}
	if n := pw.Stats().Hashes; n != 0 {
		t.Errorf("refused passwords were hashed %d times", n)
	}
}

// fixedAnalysis analyses every URL to a page scoring 50.
type fixedAnalysis struct{}

func (fixedAnalysis) AnalyseWithScreenshots(_ context.Context, _ int64, rawURL string, _ pagecheck.RenderMode, _ report.ScreenshotMode) (pagecheck.Analysis, report.Screenshots, error) {
	res := pagecheck.Results{pagecheck.SEO: {{ID: "title", Category: pagecheck.SEO, Importance: pagecheck.High, Passed: true}}}
	return pagecheck.Analysis{URL: rawURL, Results: res, Score: 50, Rating: pagecheck.RatingFor(50)}, report.Screenshots{}, nil
}

func ptr[T any](v T) *T { return &v }

// TestPasswordSlotsAreBounded: with every slot taken, hashing and
// verifying wait up to the limit, then give ErrPasswordsBusy rather than
// queue; a slot freed during the wait is taken.
func TestPasswordSlotsAreBounded(t *testing.T) {
	ctx := context.Background()
	pw := accounts.NewPasswords(cheapCosts, accounts.PasswordLimits{Concurrent: 2, Wait: time.Millisecond})
	if in, size := pw.Saturation(); in != 0 || size != 2 {
		t.Fatalf("Saturation = %d, %d; want 0, 2", in, size)
	}
	as := accounts.New(memory.NewAccountStore(), pw)
	if _, err := as.Register(ctx, "ada@example.com", "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	rs := reports.New(memory.NewReportStore(), fixedAnalysis{}, pw)
	shared, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.com/", Privacy: ptr(2), Password: ptr("open sesame")})
	if err != nil {
		t.Fatal(err)
	}

	release := accounts.HoldPasswordSlots(pw)
	busy := []struct {
		name string
		call func() error
	}{
		{"login", func() error {
			_, err := as.Login(ctx, "ada@example.com", "correct horse battery", "")
			return err
		}},
		{"login of an unknown address", func() error {
			_, err := as.Login(ctx, "eve@example.com", "correct horse battery", "")
			return err
		}},
		{"register", func() error { _, err := as.Register(ctx, "bob@example.com", "battery staple horse"); return err }},
		{"share password", func() error { _, err := rs.CheckSharePassword(ctx, shared.Report, "open sesame"); return err }},
		{"report with a password", func() error {
			_, err := rs.Create(ctx, 1, reports.NewReport{URL: "https://example.com/", Privacy: ptr(2), Password: ptr("open sesame")})
			return err
		}},
		{"new share password", func() error {
			_, err := rs.Update(ctx, 1, shared.ID, reports.ReportUpdate{Password: ptr("new sesame")})
			return err
		}},
	}
	for _, b := range busy {
		if err := b.call(); !errors.Is(err, accounts.ErrPasswordsBusy) {
			t.Errorf("%s with every slot taken: err = %v, want ErrPasswordsBusy", b.name, err)
		}
	}
	if got := pw.Stats(); got.Refused != int64(len(busy)) {
		t.Errorf("Stats = %+v, want %d refused", got, len(busy))
	}
	release()
	if _, err := as.Login(ctx, "ada@example.com", "correct horse battery", ""); err != nil {
		t.Errorf("login after the slots were freed: %v", err)
	}
}

// TestPasswordWaitTakesAFreedSlot: a request waiting for a slot gets the
// one freed during its wait; a cancelled request stops waiting.
func TestPasswordWaitTakesAFreedSlot(t *testing.T) {
	pw := accounts.NewPasswords(cheapCosts, accounts.PasswordLimits{Concurrent: 1, Wait: time.Minute})
	release := accounts.HoldPasswordSlots(pw)
	ctx, cancel := context.WithCancel(context.Background())
	cancelledErr := make(chan error, 1)
	go func() { _, err := pw.Hash(ctx, "open sesame"); cancelledErr <- err }()
	cancel()
	if err := <-cancelledErr; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled wait: err = %v, want context.Canceled", err)
	}
	done := make(chan error, 1)
	go func() { _, err := pw.Hash(context.Background(), "open sesame"); done <- err }()
	release()
	if err := <-done; err != nil {
		t.Errorf("waiting hash: err = %v, want the freed slot", err)
	}
	if in, _ := pw.Saturation(); in != 0 {
		t.Errorf("%d slots still taken", in)
	}
}

// TestCreateUserWithPassword: an operator's account made with a password
// logs in with it; the password follows the registration policy.
func TestCreateUserWithPassword(t *testing.T) {
	ctx := context.Background()
	as := accounts.New(memory.NewAccountStore(), accounts.NewPasswords(cheapCosts, accounts.PasswordLimits{}))
	var ve *account.ValidationError
	if _, err := as.CreateUser(ctx, "ops@example.com", "password"); !errors.As(err, &ve) || ve.Fields["password"] == nil {
		t.Errorf("CreateUser with a common password: err = %v, want a message on password", err)
	}
	s, err := as.CreateUser(ctx, "ops@example.com", "a long pass phrase")
	if err != nil {
		t.Fatal(err)
	}
	login, err := as.Login(ctx, "ops@example.com", "a long pass phrase", "")
	if err != nil || login.User.ID != s.User.ID {
		t.Errorf("Login with the password CreateUser set = %+v, %v; want user %d", login.User, err, s.User.ID)
	}
	if _, err := as.Login(ctx, "ops@example.com", "a wrong pass phrase", ""); !errors.Is(err, account.ErrInvalidCredentials) {
		t.Errorf("Login with another password: err = %v", err)
	}
}
