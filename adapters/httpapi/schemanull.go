package httpapi

import (
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// nullSuffix ends the name of an object schema's nullable twin.
const nullSuffix = "OrNull"

// schemaRefPrefix begins every reference to a component schema.
const schemaRefPrefix = "#/components/schemas/"

// nullableObjects declares the object fields the API answers as null (a
// pointer to a struct, without omitempty: "location": null) as nullable.
// huma refuses nullable:"true" on an object reference, so each such field
// refers instead to a twin of its object's schema whose type is
// ["object","null"] (named with nullSuffix): OpenAPI 3.1 reads it as
// "the object or null", and huma's 3.0 document as nullable: true, which
// oapi-codegen and the validators understand.
func nullableObjects(registry huma.Registry) {
	schemas := registry.Map()
	// The twins are added while walking, so walk a copy of the names.
	for _, name := range slices.Collect(maps.Keys(schemas)) {
		s := schemas[name]
		if s.Type != huma.TypeObject || strings.HasSuffix(name, nullSuffix) {
			continue
		}
		t := registry.TypeFromRef(schemaRefPrefix + name)
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			continue
		}
		for _, json := range nullObjectFields(t) {
			p := s.Properties[json]
			if p == nil || p.Ref == "" || strings.HasSuffix(p.Ref, nullSuffix) {
				continue
			}
			ref := p.Ref
			twin := ref + nullSuffix
			twinName := strings.TrimPrefix(twin, schemaRefPrefix)
			if _, done := schemas[twinName]; !done {
				target := registry.SchemaFromRef(ref)
				if target == nil || target.Type != huma.TypeObject {
					continue
				}
				c := *target
				c.Nullable = true
				schemas[twinName] = &c
			}
			p.Ref = twin
		}
	}
}

// nullObjectFields names (in JSON) the fields of struct t, and of its
// embedded structs (which huma flattens), that marshal a nil pointer to a
// struct as null.
func nullObjectFields(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, nullObjectFields(et)...)
			}
			continue
		}
		if !f.IsExported() || f.Type.Kind() != reflect.Pointer || f.Type.Elem().Kind() != reflect.Struct {
			continue
		}
		if o := strings.Split(opts, ","); slices.Contains(o, "omitempty") || slices.Contains(o, "omitzero") {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}
