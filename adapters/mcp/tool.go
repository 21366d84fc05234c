package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// handler is a tool's typed handler: its structured result, the short
// text a person reads, or an error mapped by kind (errors.go).
type handler[In, Out any] func(ctx context.Context, req *sdk.CallToolRequest, in In) (Out, string, error)

// addTool registers a tool whose input and output schemas are generated
// from In and Out (json names; jsonschema tags are the descriptions;
// fields without omitempty are required). The arguments are decoded here,
// not by the SDK, so a wrong argument is an invalid_argument error naming
// it, in this transport's words, like every other error.
func addTool[In, Out any](s *sdk.Server, t *tools, tool *sdk.Tool, h handler[In, Out]) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", tool.Name, err))
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", tool.Name, err))
	}
	tool.InputSchema, tool.OutputSchema = in, out
	s.AddTool(tool, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		if err := ctx.Err(); err != nil { // a call of a batch cut by its deadline
			return t.errorResult(ctx, tool.Name, err), nil
		}
		args, err := decodeArgs[In](req.Params.Arguments, in)
		if err != nil {
			return t.errorResult(ctx, tool.Name, err), nil
		}
		res, text, err := h(ctx, req, args)
		if err != nil {
			return t.errorResult(ctx, tool.Name, err), nil
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: res}, nil
	})
}

// decodeArgs decodes a tool's arguments into In: an object whose required
// properties (per schema) are present and not null, with no property In
// lacks and every value of its property's type.
func decodeArgs[In any](raw json.RawMessage, schema *jsonschema.Schema) (In, error) {
	var in In
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return in, argError("arguments", "must be a JSON object")
	}
	if bad := argProblems(fields, schema); len(bad) > 0 {
		return in, bad
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return in, decodeError(err, schema)
	}
	return in, nil
}

// maxUnknownArgs caps the unknown arguments an error names.
const maxUnknownArgs = 10

// argProblems are the problems of fields against schema before decoding:
// each argument the tool lacks (the first maxUnknownArgs by name, with
// the tool's arguments listed) and each required one missing or null.
func argProblems(fields map[string]json.RawMessage, schema *jsonschema.Schema) argErrors {
	bad := argErrors{}
	var unknown []string
	for name := range fields {
		if _, ok := schema.Properties[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		known := make([]string, 0, len(schema.Properties))
		for name := range schema.Properties {
			known = append(known, name)
		}
		sort.Strings(known)
		msg := "is not an argument of this tool (its arguments: " + strings.Join(known, ", ") + ")"
		if len(known) == 0 {
			msg = "is not an argument of this tool (it takes none)"
		}
		for _, name := range unknown[:min(len(unknown), maxUnknownArgs)] {
			bad.add(clipName(name), msg)
		}
	}
	for _, name := range schema.Required {
		if v, ok := fields[name]; !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			bad.add(name, "is required")
		}
	}
	return bad
}

// clipName shortens an argument name a client sent for an error.
func clipName(name string) string {
	if len(name) > 64 {
		return name[:64] + "..."
	}
	return name
}

// decodeError names the argument a decoding error is about, in the
// schema's terms rather than Go's.
func decodeError(err error, schema *jsonschema.Schema) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		name, _, _ := strings.Cut(te.Field, ".")
		if p, ok := schema.Properties[name]; ok {
			return argError(name, "must be of type "+typeName(p))
		}
		return argError(name, "has the wrong type")
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return argError(clipName(strings.Trim(name, `"`)), "is not an argument of this tool")
	}
	return argError("arguments", "must be a JSON object of the tool's arguments")
}

// typeName is the JSON type a property's schema asks for.
func typeName(p *jsonschema.Schema) string {
	if p.Type != "" {
		return p.Type
	}
	for _, t := range p.Types {
		if t != "null" {
			return t
		}
	}
	return "the documented type"
}
