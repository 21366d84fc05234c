package httpapi

import (
	"slices"

	"github.com/danielgtaylor/huma/v2"
)

// tagDescriptions describes each tag the operations are grouped by, in
// the order the OpenAPI document's top-level tags list them (tools show
// them as sections): the public postal API, site analysis, operations.
var tagDescriptions = []huma.Tag{
	{Name: "Pincodes", Description: "Public. India Post's PIN codes: the offices of a PIN, search, nearby offices, autocomplete, distance, batches and bulk files."},
	{Name: "Post offices", Description: "Public reads, and likes and reviews with a Bearer key: one post office by its id, with its location and DIGIPIN."},
	{Name: "Villages", Description: "Public. The Local Government Directory's villages (West Bengal), searched by name."},
	{Name: "States and districts", Description: "Public. States and districts (LGD), each with its offices; named by id, name or unique prefix."},
	{Name: "DIGIPIN", Description: "Public. India Post's 10-character grid geocode: encode, decode, validate, nearest office, info, and bulk files."},
	{Name: "Dataset", Description: "Public. The served release of the directory, its source and licence, and what changed between releases."},
	{Name: "Accounts", Description: "Register, log in (an API key for the Bearer scheme), the account and its keys."},
	{Name: "Reports", Description: "Bearer key. Analyses of one page: create (one, a batch), list, read, update (privacy, password, re-analysis), delete."},
	{Name: "Projects", Description: "Bearer key. Reports grouped by site."},
	{Name: "Crawls", Description: "Bearer key. Whole-site audits: start, follow, read pages, issues and links, export, compare, schedule, cancel, delete."},
	{Name: "Webhooks", Description: "Bearer key. Signed deliveries of report and crawl events to a URL of yours."},
	{Name: "Operations", Description: "Liveness, readiness and the server's version."},
}

// addTags sets api's top-level tags: every tag an operation uses, with
// its description, in tagDescriptions' order.
func addTags(api huma.API) {
	doc := api.OpenAPI()
	var names []string
	for _, p := range doc.Paths {
		for _, op := range []*huma.Operation{p.Get, p.Put, p.Post, p.Delete, p.Patch, p.Head} {
			if op == nil {
				continue
			}
			for _, t := range op.Tags {
				if !slices.Contains(names, t) {
					names = append(names, t)
				}
			}
		}
	}
	doc.Tags = doc.Tags[:0]
	for _, t := range tagDescriptions {
		if slices.Contains(names, t.Name) {
			doc.Tags = append(doc.Tags, &t)
		}
	}
	for _, n := range names { // a tag not described above: listed last, as it is
		if !slices.ContainsFunc(tagDescriptions, func(t huma.Tag) bool { return t.Name == n }) {
			doc.Tags = append(doc.Tags, &huma.Tag{Name: n})
		}
	}
}
