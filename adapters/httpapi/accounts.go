package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/adapters/httpapi/internal/wire"
	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/domain/account"
)

// passwordPolicyDoc states the password rules (account.PasswordProblem)
// for the OpenAPI descriptions.
const passwordPolicyDoc = "Passwords need at least 8 characters, not counting leading and trailing spaces; at most 256 " +
	"bytes (UTF-8); no control characters (NUL, tab, line breaks); not one character repeated; not one of the most " +
	"common passwords (a list derived from the NCSC's top 100,000); and not the e-mail address. A refused password " +
	"is 422 on password saying which rule it breaks."

// passwordBusyDoc documents the cap on concurrent argon2id runs.
const passwordBusyDoc = "Password hashing (argon2id, 19 MiB each) runs a bounded number at a time: when every slot " +
	"stays busy for the wait (--password-hashes, --password-wait), the answer is 503 with Retry-After (the server is " +
	"saturated, not the client over a quota, hence not 429)."

// accountData is the caller's account.
type accountData struct {
	wire.UserData
	CurrentKey wire.KeyData `json:"current_key"`
}

// keysData lists the caller's keys.
type keysData struct {
	Keys []wire.KeyData `json:"keys"`
}

// deletedData confirms a deletion.
type deletedData struct {
	ID      int64 `json:"id"`
	Deleted bool  `json:"deleted"`
}

type credentialsInput struct {
	Body struct {
		Email    string `json:"email" maxLength:"254" doc:"E-mail address."`
		Password string `json:"password" maxLength:"1024" doc:"Register: at least 8 characters not counting leading and trailing spaces, at most 256 bytes (UTF-8), no control characters (NUL, tab, line breaks), not one character repeated, not a common password, not the e-mail address. Login: the password as registered."`
		Name     string `json:"name,omitempty" maxLength:"100" doc:"Login only: a name for the key this login mints (default: the time of login)."`
	}
}

type rotateInput struct {
	Body *struct {
		Name string `json:"name,omitempty" maxLength:"100" doc:"Name of the new key (default: the old key's name)."`
	}
}

type keyIDInput struct {
	ID int64 `path:"id" doc:"Key id."`
}

func userData(u account.User) wire.UserData {
	return wire.UserData{ID: u.ID, Email: u.Email, CreatedAt: u.CreatedAt}
}

func keyDataOf(k account.APIKey) wire.KeyData {
	return wire.KeyData{ID: k.ID, Name: k.Name, Prefix: k.Prefix, CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt}
}

func tokenDataOf(s accounts.Session) wire.TokenData {
	return wire.TokenData{Token: s.Key, TokenType: "Bearer", Key: keyDataOf(s.Info), User: userData(s.User)}
}

func registerAccounts(api huma.API, acc *accounts.Accounts) {
	g := group(api)
	tags := []string{"Accounts"}
	registerForm(g, huma.Operation{
		OperationID: "register", Method: http.MethodPost, Path: "/register", DefaultStatus: http.StatusCreated,
		Summary: "Create an account", Tags: tags,
		Description: "A taken e-mail is 422 on email (on purpose: there is no e-mail channel to answer it otherwise; " +
			"this operation and login share a quota of 10 requests a minute per IPv4 address or IPv6 /64 by default, " +
			"--auth-rate-limit). Log in afterwards to get an API key. " + passwordPolicyDoc +
			" The e-mail must be valid UTF-8 without control or invisible characters (422 on email). " + passwordBusyDoc,
	}, func(ctx context.Context, in *credentialsInput) (*reply[wire.UserData], error) {
		u, err := acc.Register(ctx, in.Body.Email, in.Body.Password)
		if err != nil {
			return nil, toHTTP(err)
		}
		r := ok(userData(u))
		r.Status = http.StatusCreated
		return r, nil
	})
	registerForm(g, huma.Operation{
		OperationID: "login", Method: http.MethodPost, Path: "/login",
		Summary: "Log in: mint a new API key", Tags: tags,
		Description: "Each login mints a new key (named by `name`, invisible and control characters removed); earlier keys " +
			"stay valid until revoked. A wrong password and an unknown e-mail are the same 401, in the same time. " + passwordBusyDoc,
	}, func(ctx context.Context, in *credentialsInput) (*reply[wire.TokenData], error) {
		s, err := acc.Login(ctx, in.Body.Email, in.Body.Password, in.Body.Name)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(tokenDataOf(s)), nil
	})
	op := huma.Operation{OperationID: "get-account", Method: http.MethodGet, Path: "/account", Summary: "The caller's account", Tags: tags,
		Description: "The user the Bearer key belongs to (id, e-mail, creation time) and that key (current_key)."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, _ *struct{}) (*reply[accountData], error) {
		p := caller(ctx)
		return ok(accountData{UserData: userData(p.User), CurrentKey: keyDataOf(p.Key)}), nil
	})
	op = huma.Operation{OperationID: "rotate-api-key", Method: http.MethodPost, Path: "/account/api-key",
		Summary: "Rotate the key in use", Tags: tags, Description: "Mints a new key and revokes the one that authenticated this request."}
	protect(acc, &op)
	registerForm(g, op, func(ctx context.Context, in *rotateInput) (*reply[wire.TokenData], error) {
		p, name := caller(ctx), ""
		if in.Body != nil {
			name = in.Body.Name
		}
		s, err := acc.Rotate(ctx, p.User, p.Key, name)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(tokenDataOf(s)), nil
	})
	registerKeys(g, acc)
}

func registerKeys(g huma.API, acc *accounts.Accounts) {
	op := huma.Operation{OperationID: "list-api-keys", Method: http.MethodGet, Path: "/account/keys", Summary: "List the caller's API keys", Tags: []string{"Accounts"},
		Description: "Every key of the caller's user that is not revoked, the one in use included. The keys themselves are shown only when minted (login, rotation): here, each key's prefix."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, _ *struct{}) (*reply[keysData], error) {
		keys, err := acc.Keys(ctx, caller(ctx).User.ID)
		if err != nil {
			return nil, toHTTP(err)
		}
		out := keysData{Keys: make([]wire.KeyData, 0, len(keys))}
		for _, k := range keys {
			out.Keys = append(out.Keys, keyDataOf(k))
		}
		return ok(out), nil
	})
	op = huma.Operation{OperationID: "revoke-api-key", Method: http.MethodDelete, Path: "/account/keys/{id}", Summary: "Revoke one of the caller's API keys", Tags: []string{"Accounts"},
		Description: "Deletes the key: requests carrying it are 401 from then on. Any of the caller's keys may be revoked, the one in use included; a key of another user or an unknown id is 404."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *keyIDInput) (*reply[deletedData], error) {
		if err := acc.RevokeKey(ctx, caller(ctx).User.ID, in.ID); err != nil {
			return nil, toHTTP(err)
		}
		return ok(deletedData{ID: in.ID, Deleted: true}), nil
	})
}
