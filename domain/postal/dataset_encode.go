package postal

import (
	"encoding/binary"
	"errors"
	"maps"
	"math"
	"reflect"
	"slices"
)

// datasetMagic starts an encoded dataset; its digit is the layout's version.
const datasetMagic = "pinsight-dataset-1\n"

// ErrDatasetEncoding is returned by DecodeDataset for bytes that are not a
// dataset encoded by EncodeDataset (of this layout).
var ErrDatasetEncoding = errors.New("postal: not an encoded dataset")

// EncodeDataset packs a cleaned dataset into bytes that DecodeDataset turns
// back into an equal one, but for Terminated and the offices' Feedback,
// which are not encoded (the loader and the directory use case set them). Every
// distinct string is written once; the bytes are deterministic for a
// dataset, so an encoding derived from files can be checked by encoding
// them again.
func EncodeDataset(ds *Dataset) []byte {
	e := &dsEncoder{ids: map[string]uint64{}}
	e.len(len(ds.Offices), ds.Offices == nil)
	for i := range ds.Offices {
		o := &ds.Offices[i]
		e.int(o.ID)
		e.str(string(o.Pincode), o.Name, o.OfficeType, o.Delivery, o.Circle, o.Region, o.Division, o.District, o.State)
		e.int(int64(o.DistrictID))
		e.int(int64(o.StateID))
		e.body = appendLocation(e.body, o.Location)
		e.str(string(o.Quality))
	}
	e.len(len(ds.States), ds.States == nil)
	for _, s := range ds.States {
		e.int(int64(s.ID))
		e.str(s.Name)
	}
	e.len(len(ds.Districts), ds.Districts == nil)
	for _, d := range ds.Districts {
		e.int(int64(d.ID))
		e.str(d.Name, d.AltName)
		e.int(int64(d.StateID))
	}
	e.len(len(ds.Villages), ds.Villages == nil)
	for _, v := range ds.Villages {
		e.str(v.Code, v.Name, v.Subdistrict, v.District, v.State, string(v.Pincode))
		e.int(int64(v.DistrictID))
		e.int(int64(v.StateID))
	}
	e.len(len(ds.VillageStates), ds.VillageStates == nil)
	e.str(ds.VillageStates...)
	e.bool(ds.HasLGD)
	e.report(&ds.Report)
	e.str(ds.Source.Kind, ds.Source.Release)
	e.len(len(ds.Source.Files), ds.Source.Files == nil)
	for _, f := range ds.Source.Files {
		e.str(f.Role, f.Name, f.Date, f.SHA256)
		e.int(int64(f.Rows))
	}
	// The strings, then the body referring to them by number.
	out := append([]byte(datasetMagic), binary.AppendUvarint(nil, uint64(len(e.strs)))...)
	for _, s := range e.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
	}
	for _, s := range e.strs {
		out = append(out, s...)
	}
	return append(out, e.body...)
}

// appendLocation appends 0 for no location, else 1 and the latitude and
// longitude's bits.
func appendLocation(b []byte, l *Location) []byte {
	if l == nil {
		return append(b, 0)
	}
	b = binary.LittleEndian.AppendUint64(append(b, 1), math.Float64bits(l.Latitude))
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(l.Longitude))
}

// dsEncoder writes a dataset's body and collects its distinct strings.
type dsEncoder struct {
	body []byte
	strs []string
	ids  map[string]uint64
}

func (e *dsEncoder) str(ss ...string) {
	for _, s := range ss {
		id, ok := e.ids[s]
		if !ok {
			id = uint64(len(e.strs))
			e.ids[s] = id
			e.strs = append(e.strs, s)
		}
		e.body = binary.AppendUvarint(e.body, id)
	}
}

func (e *dsEncoder) int(v int64) { e.body = binary.AppendVarint(e.body, v) }

func (e *dsEncoder) bool(v bool) {
	b := byte(0)
	if v {
		b = 1
	}
	e.body = append(e.body, b)
}

// len writes a slice's or map's length, telling nil from empty.
func (e *dsEncoder) len(n int, isNil bool) {
	if isNil {
		e.body = binary.AppendUvarint(e.body, 0)
		return
	}
	e.body = binary.AppendUvarint(e.body, uint64(n)+1)
}

// report writes the report: its integer fields in declaration order, then
// its maps by sorted key.
func (e *dsEncoder) report(r *CleaningReport) {
	v := reflect.ValueOf(r).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Int {
			e.int(f.Int())
		}
	}
	e.len(len(r.Locations), r.Locations == nil)
	for _, k := range slices.Sorted(maps.Keys(r.Locations)) {
		e.str(k)
		e.int(int64(r.Locations[k]))
	}
	e.len(len(r.Qualities), r.Qualities == nil)
	for _, k := range slices.Sorted(maps.Keys(r.Qualities)) {
		e.str(string(k))
		e.int(int64(r.Qualities[k]))
	}
}

// DecodeDataset returns the dataset EncodeDataset packed into b. Its
// strings share one allocation.
func DecodeDataset(b []byte) (ds *Dataset, err error) {
	d, err := newDSDecoder(b)
	if err != nil {
		return nil, err
	}
	defer func() {
		if recover() != nil {
			ds, err = nil, ErrDatasetEncoding
		}
	}()
	ds = &Dataset{}
	if n, ok := d.len(); ok {
		ds.Offices = make([]PostOffice, n)
		locs := make([]Location, 0, n)
		for i := range ds.Offices {
			o := &ds.Offices[i]
			o.ID = d.int()
			o.Pincode, o.Name, o.OfficeType, o.Delivery = Pincode(d.str()), d.str(), d.str(), d.str()
			o.Circle, o.Region, o.Division, o.District, o.State = d.str(), d.str(), d.str(), d.str(), d.str()
			o.DistrictID, o.StateID = int(d.int()), int(d.int())
			if d.byte() == 1 {
				locs = append(locs, Location{Latitude: d.float(), Longitude: d.float()})
				o.Location = &locs[len(locs)-1]
			}
			o.Quality = LocationQuality(d.str())
		}
	}
	if n, ok := d.len(); ok {
		ds.States = make([]State, n)
		for i := range ds.States {
			ds.States[i] = State{ID: int(d.int()), Name: d.str()}
		}
	}
	if n, ok := d.len(); ok {
		ds.Districts = make([]District, n)
		for i := range ds.Districts {
			ds.Districts[i] = District{ID: int(d.int()), Name: d.str(), AltName: d.str(), StateID: int(d.int())}
		}
	}
	if n, ok := d.len(); ok {
		ds.Villages = make([]Village, n)
		for i := range ds.Villages {
			v := &ds.Villages[i]
			v.Code, v.Name, v.Subdistrict, v.District, v.State, v.Pincode = d.str(), d.str(), d.str(), d.str(), d.str(), Pincode(d.str())
			v.DistrictID, v.StateID = int(d.int()), int(d.int())
		}
	}
	if n, ok := d.len(); ok {
		ds.VillageStates = make([]string, n)
		for i := range ds.VillageStates {
			ds.VillageStates[i] = d.str()
		}
	}
	ds.HasLGD = d.byte() == 1
	d.report(&ds.Report)
	ds.Source.Kind, ds.Source.Release = d.str(), d.str()
	if n, ok := d.len(); ok {
		ds.Source.Files = make([]SourceFile, n)
		for i := range ds.Source.Files {
			f := &ds.Source.Files[i]
			f.Role, f.Name, f.Date, f.SHA256 = d.str(), d.str(), d.str(), d.str()
			f.Rows = int(d.int())
		}
	}
	if len(d.b) != 0 {
		return nil, ErrDatasetEncoding
	}
	return ds, nil
}

// dsDecoder reads a dataset's body; a short or malformed body panics (and
// DecodeDataset recovers).
type dsDecoder struct {
	b    []byte
	strs []string
}

// newDSDecoder reads the string table of b.
func newDSDecoder(b []byte) (*dsDecoder, error) {
	if len(b) < len(datasetMagic) || string(b[:len(datasetMagic)]) != datasetMagic {
		return nil, ErrDatasetEncoding
	}
	d := &dsDecoder{b: b[len(datasetMagic):]}
	n, ok := d.uvarint()
	if !ok || n > uint64(len(d.b)) {
		return nil, ErrDatasetEncoding
	}
	lens := make([]int, n)
	total := uint64(0)
	for i := range lens {
		l, ok := d.uvarint()
		if !ok || l > uint64(len(d.b)) {
			return nil, ErrDatasetEncoding
		}
		lens[i], total = int(l), total+l
	}
	if total > uint64(len(d.b)) {
		return nil, ErrDatasetEncoding
	}
	all := string(d.b[:total])
	d.b = d.b[total:]
	d.strs = make([]string, n)
	at := 0
	for i, l := range lens {
		d.strs[i] = all[at : at+l]
		at += l
	}
	return d, nil
}

func (d *dsDecoder) uvarint() (uint64, bool) {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		return 0, false
	}
	d.b = d.b[n:]
	return v, true
}

func (d *dsDecoder) str() string {
	id, ok := d.uvarint()
	if !ok {
		panic(ErrDatasetEncoding)
	}
	return d.strs[id]
}

func (d *dsDecoder) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		panic(ErrDatasetEncoding)
	}
	d.b = d.b[n:]
	return v
}

func (d *dsDecoder) byte() byte {
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *dsDecoder) float() float64 {
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

// len reads a length written by dsEncoder.len: ok is false for nil.
func (d *dsDecoder) len() (n int, ok bool) {
	v, good := d.uvarint()
	if !good || v > uint64(len(d.b))+1 {
		panic(ErrDatasetEncoding)
	}
	return int(v) - 1, v != 0
}

func (d *dsDecoder) report(r *CleaningReport) {
	v := reflect.ValueOf(r).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Int {
			f.SetInt(d.int())
		}
	}
	if n, ok := d.len(); ok {
		r.Locations = make(map[string]int, n)
		for range n {
			k := d.str()
			r.Locations[k] = int(d.int())
		}
	}
	if n, ok := d.len(); ok {
		r.Qualities = make(map[LocationQuality]int, n)
		for range n {
			k := LocationQuality(d.str())
			r.Qualities[k] = int(d.int())
		}
	}
}
