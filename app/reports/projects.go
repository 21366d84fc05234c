package reports

import (
	"context"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/site"
	"github.com/pinsight/pinsight/ports"
)

// Projects lists and deletes a user's projects: the hosts of their reports.
type Projects struct {
	store ports.ReportStore
}

// NewProjects returns the project use cases over store.
func NewProjects(store ports.ReportStore) *Projects { return &Projects{store: store} }

// List returns a page of the user's projects. Invalid parameters are a
// *site.ValidationError.
func (ps *Projects) List(ctx context.Context, userID int64, p site.ProjectParams) (paging.List[site.Project], error) {
	q, err := site.NewProjectQuery(p)
	if err != nil {
		return paging.List[site.Project]{}, err
	}
	items, total, err := ps.store.Projects(ctx, userID, q)
	return paging.List[site.Project]{Items: items, Total: total, Page: q.Page}, err
}

// Delete deletes every report of the user's project name (matched as
// site.NormalizeProject does: any case, with or without "www.") and returns
// how many; site.ErrNotFound when the user has no such project (a name
// that is not text names none).
func (ps *Projects) Delete(ctx context.Context, userID int64, name string) (int, error) {
	if !site.IsText(name) {
		return 0, site.ErrNotFound
	}
	return ps.store.DeleteProject(ctx, userID, site.NormalizeProject(name))
}
