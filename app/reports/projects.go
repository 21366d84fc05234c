package reports

import (
	"context"

	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/domain/report"
	"github.com/pinsight/pinsight/ports"
)

// Projects lists and deletes a user's projects: the hosts of their reports.
type Projects struct {
	store ports.ReportStore
}

// NewProjects returns the project use cases over store.
func NewProjects(store ports.ReportStore) *Projects { return &Projects{store: store} }

// List returns a page of the user's projects. Invalid parameters are a
// *report.ValidationError.
func (ps *Projects) List(ctx context.Context, userID int64, p report.ProjectParams) (paging.List[report.Project], error) {
	q, err := report.NewProjectQuery(p)
	if err != nil {
		return paging.List[report.Project]{}, err
	}
	items, total, err := ps.store.Projects(ctx, userID, q)
	return paging.List[report.Project]{Items: items, Total: total, Page: q.Page}, err
}

// Delete deletes every report of the user's project name (matched as
// report.NormalizeProject does: any case, with or without "www.") and returns
// how many; report.ErrNotFound when the user has no such project (a name
// that is not text names none).
func (ps *Projects) Delete(ctx context.Context, userID int64, name string) (int, error) {
	if !report.IsText(name) {
		return 0, report.ErrNotFound
	}
	return ps.store.DeleteProject(ctx, userID, report.NormalizeProject(name))
}
