package crawl

import (
	"net/url"

	"github.com/pinsight/pinsight/domain/robots"
)

// AIAgent is a well-known crawler of an AI company, by the product token
// robots.txt rules name it with.
type AIAgent struct {
	Token    string // the User-agent token, as its operator documents it
	Operator string
	// Purpose is what its fetches serve: "training" (collecting data to
	// train models), "search" (an AI search index) or "user" (fetching a
	// page a user asked an assistant about).
	Purpose string
}

// AIAgents is the table of well-known AI crawlers a crawl's summary
// reports on. Some tokens (Google-Extended, Applebot-Extended) name no
// crawler of their own: their operators' regular crawlers read the rules
// for them to decide whether fetched pages may train models.
var AIAgents = []AIAgent{
	{"GPTBot", "OpenAI", "training"},
	{"OAI-SearchBot", "OpenAI", "search"},
	{"ChatGPT-User", "OpenAI", "user"},
	{"ClaudeBot", "Anthropic", "training"},
	{"Claude-SearchBot", "Anthropic", "search"},
	{"Claude-User", "Anthropic", "user"},
	{"anthropic-ai", "Anthropic", "training"},
	{"Google-Extended", "Google", "training"},
	{"Applebot-Extended", "Apple", "training"},
	{"PerplexityBot", "Perplexity", "search"},
	{"Perplexity-User", "Perplexity", "user"},
	{"Meta-ExternalAgent", "Meta", "training"},
	{"Meta-ExternalFetcher", "Meta", "user"},
	{"CCBot", "Common Crawl", "training"},
	{"Bytespider", "ByteDance", "training"},
	{"Amazonbot", "Amazon", "search"},
	{"cohere-ai", "Cohere", "training"},
	{"MistralAI-User", "Mistral AI", "user"},
	{"DuckAssistBot", "DuckDuckGo", "search"},
}

// AIAccess is whether robots.txt lets one AI crawler fetch the start URL.
type AIAccess struct {
	AIAgent
	Allowed bool
	// Group is the group of robots.txt that decided: the agent's own
	// token (lower case), "*", or "" when no group applies.
	Group string
	Rule  string // the rule that keeps it out ("Disallow: /"), "" when allowed
}

// AIReadiness says, for each of AIAgents in order, whether robots.txt
// (f; the zero File when the site has none, which lets everyone in) lets
// it fetch startURL (a normalised URL).
func AIReadiness(f robots.File, startURL string) []AIAccess {
	path := "/"
	if u, err := url.Parse(startURL); err == nil {
		path = u.RequestURI()
	}
	out := make([]AIAccess, len(AIAgents))
	for i, a := range AIAgents {
		g := f.For(a.Token)
		rule := g.Disallowed(path)
		out[i] = AIAccess{AIAgent: a, Allowed: rule == "", Group: g.Agent, Rule: rule}
	}
	return out
}
