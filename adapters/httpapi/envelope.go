package httpapi

import "net/http"

// envelope is the success body of every endpoint: {"success": true, "data": ...}.
type envelope[T any] struct {
	Success bool `json:"success" doc:"Always true."`
	Data    T    `json:"data"`
}

// reply is a huma output carrying an envelope, with an optional status.
type reply[T any] struct {
	Status int `json:"-"`
	Body   envelope[T]
}

// ok wraps data in a 200 reply.
func ok[T any](data T) *reply[T] {
	return &reply[T]{Status: http.StatusOK, Body: envelope[T]{Success: true, Data: data}}
}
