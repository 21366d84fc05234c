package reviews

import (
	"context"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/postal"
	"github.com/pinsight/pinsight/domain/review"
)

// ListParams select a page of reviews: SortBy created_at (default) or
// rating, Sort asc or desc (default desc: newest or best first), Page and
// PerPage as paging.Page (zero: defaults).
type ListParams struct {
	SortBy  string
	Sort    string
	Page    int
	PerPage int
}

// query validates p: an unknown sort_by or sort is a
// *review.ValidationError, never replaced by a default.
func (p ListParams) query() (review.ListQuery, paging.Page, error) {
	fields := map[string][]string{}
	q := review.ListQuery{SortBy: p.SortBy, Desc: true}
	switch p.SortBy {
	case "":
		q.SortBy = review.SortCreated
	case review.SortCreated, review.SortRating:
	default:
		fields["sort_by"] = []string{"must be created_at or rating"}
	}
	switch p.Sort {
	case "", "desc":
	case "asc":
		q.Desc = false
	default:
		fields["sort"] = []string{"must be asc or desc"}
	}
	if p.Page < 0 {
		fields["page"] = []string{"must be 1 or more"}
	}
	if p.PerPage < 0 {
		fields["per_page"] = []string{"must be 1 or more"}
	}
	if len(fields) > 0 {
		return q, paging.Page{}, &review.ValidationError{Fields: fields}
	}
	page := paging.Page{Number: p.Page, PerPage: p.PerPage}.WithDefaults()
	q.Offset, q.Limit = page.Offset(), page.PerPage
	return q, page, nil
}

// OfficeReviews pages the reviews of office id.
func (rs *Reviews) OfficeReviews(ctx context.Context, officeID int64, p ListParams) (paging.List[Entry], error) {
	q, page, err := p.query()
	if err != nil {
		return paging.List[Entry]{}, err
	}
	key, err := rs.office(ctx, officeID)
	if err != nil {
		return paging.List[Entry]{}, err
	}
	items, total, err := rs.store.OfficeReviews(ctx, key, q)
	if err != nil {
		return paging.List[Entry]{}, err
	}
	out := make([]Entry, len(items))
	for i, r := range items {
		out[i] = Entry{Review: r, OfficeID: officeID}
	}
	return paging.List[Entry]{Items: out, Total: total, Page: page}, nil
}

// UserReviews pages the user's reviews, each with the id of its office in
// the loaded release (0 when the release has none of that identity).
func (rs *Reviews) UserReviews(ctx context.Context, user int64, p ListParams) (paging.List[Entry], error) {
	q, page, err := p.query()
	if err != nil {
		return paging.List[Entry]{}, err
	}
	items, total, err := rs.store.UserReviews(ctx, user, q)
	if err != nil {
		return paging.List[Entry]{}, err
	}
	ids, err := rs.currentIDs(ctx, items)
	if err != nil {
		return paging.List[Entry]{}, err
	}
	out := make([]Entry, len(items))
	for i, r := range items {
		out[i] = Entry{Review: r, OfficeID: ids[r.Office]}
	}
	return paging.List[Entry]{Items: out, Total: total, Page: page}, nil
}

// currentIDs maps the offices of items to their ids in the loaded release
// (absent when it has none of that identity).
func (rs *Reviews) currentIDs(ctx context.Context, items []review.Review) (map[review.Office]int64, error) {
	out := map[review.Office]int64{}
	seen := map[postal.Pincode]bool{}
	for _, r := range items {
		if seen[r.Office.Pincode] {
			continue
		}
		seen[r.Office.Pincode] = true
		ids, err := rs.dir.Identities(ctx, r.Office.Pincode)
		if err != nil {
			return nil, err
		}
		for id, key := range ids { // a PIN or office left the release: its reviews stay, unseen
			out[key] = id
		}
	}
	return out, nil
}
