package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/pinsight/pinsight/app/accounts"
	"github.com/pinsight/pinsight/app/reports"
	"github.com/pinsight/pinsight/domain/report"
)

type projectListInput struct {
	Search   string `query:"search" maxLength:"255" doc:"Free text matched in the project name, ignoring case. A NUL character or invalid UTF-8 is 422."`
	SearchBy string `query:"search_by" enum:"project" default:"project" doc:"What search matches: project."`
	SortBy   string `query:"sort_by" enum:"created_at,project" default:"created_at" doc:"created_at is the creation time of the project's oldest report; ties are broken by name."`
	Sort     string `query:"sort" enum:"desc,asc" default:"desc" doc:"Direction of sort_by."`
	PerPage  int    `query:"per_page" enum:"10,25,50,100" default:"10" doc:"Items per page."`
	Page     int    `query:"page" minimum:"1" default:"1" doc:"A page beyond the last is an empty list."`
}

type projectInput struct {
	Project string `path:"project" maxLength:"255" doc:"Project name (case and a leading www. ignored)."`
}

func registerProjects(api huma.API, projects *reports.Projects, acc *accounts.Accounts) {
	g := group(api)
	tags := []string{"Projects"}
	op := huma.Operation{OperationID: "list-projects", Method: http.MethodGet, Path: "/projects", Tags: tags,
		Summary: "List the caller's projects",
		Description: "A project is the host of a report's final URL, lower-cased, without a leading www. " +
			"(sub.example.com and example.com differ); it exists while it has reports. Each item gives the " +
			"number of reports, their average score (truncated) and its band. Invalid search_by, sort_by, sort, " +
			"per_page (10, 25, 50 or 100) or page values are 422. data: {projects, meta}."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *projectListInput) (*reply[projectsData], error) {
		page, err := projects.List(ctx, caller(ctx).User.ID, report.ProjectParams{
			Search: in.Search, SearchBy: in.SearchBy, SortBy: in.SortBy, Sort: in.Sort, PerPage: in.PerPage, Page: in.Page,
		})
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(projectsDataOf(page)), nil
	})
	op = huma.Operation{OperationID: "delete-project", Method: http.MethodDelete, Path: "/projects/{project}", Tags: tags,
		Summary: "Delete a project: every one of the caller's reports of that host",
		Description: "Answers the number of reports deleted. A project the caller has no report of is 404, " +
			"whoever else has one."}
	protect(acc, &op)
	huma.Register(g, op, func(ctx context.Context, in *projectInput) (*reply[projectDeletedData], error) {
		n, err := projects.Delete(ctx, caller(ctx).User.ID, in.Project)
		if err != nil {
			return nil, toHTTP(err)
		}
		return ok(projectDeletedData{Project: report.NormalizeProject(in.Project), Deleted: true, ReportsDeleted: n}), nil
	})
}
