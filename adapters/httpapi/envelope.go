package httpapi

import "net/http"

// Envelope is the success body of every endpoint: {"success": true, "data": ...}.
type Envelope[T any] struct {
	Success bool `json:"success" doc:"Always true."`
	Data    T    `json:"data"`
}

// Reply is a huma output carrying an Envelope, with an optional status.
type Reply[T any] struct {
	Status int `json:"-"`
	Body   Envelope[T]
}

// ok wraps data in a 200 reply.
func ok[T any](data T) *Reply[T] {
	return &Reply[T]{Status: http.StatusOK, Body: Envelope[T]{Success: true, Data: data}}
}

// Meta is the pagination block of every paginated list.
type Meta struct {
	Total       int `json:"total"`
	PerPage     int `json:"per_page"`
	CurrentPage int `json:"current_page"`
	LastPage    int `json:"last_page"`
}
