package postal

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// EncodeReleaseOffices packs a release's offices into bytes for storage
// (gzip-compressed; about 1.5 MB for the whole directory): the baseline of
// the next release's Diff.
func EncodeReleaseOffices(offices []ReleaseOffice) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	w := bufio.NewWriter(zw)
	var scratch []byte
	for i := range offices {
		o := &offices[i]
		scratch = binary.AppendUvarint(scratch[:0], uint64(len(o.Pincode)))
		scratch = append(scratch, o.Pincode...)
		scratch = binary.AppendUvarint(scratch, uint64(len(o.Name)))
		scratch = append(scratch, o.Name...)
		scratch = binary.AppendUvarint(scratch, uint64(len(o.OfficeType)))
		scratch = append(scratch, o.OfficeType...)
		if o.Location == nil {
			scratch = append(scratch, 0)
		} else {
			scratch = append(scratch, 1)
			scratch = binary.LittleEndian.AppendUint64(scratch, math.Float64bits(o.Location.Latitude))
			scratch = binary.LittleEndian.AppendUint64(scratch, math.Float64bits(o.Location.Longitude))
		}
		_, _ = w.Write(scratch) // writes to a bytes.Buffer do not fail
	}
	_ = w.Flush()
	_ = zw.Close()
	return buf.Bytes()
}

// DecodeReleaseOffices unpacks what EncodeReleaseOffices packed.
func DecodeReleaseOffices(b []byte) ([]ReleaseOffice, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("postal: release offices: %w", err)
	}
	r := bufio.NewReader(zr)
	var out []ReleaseOffice
	str := func() (string, error) {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return "", err
		}
		if n > 1<<16 {
			return "", errors.New("string too long")
		}
		s := make([]byte, n)
		_, err = io.ReadFull(r, s)
		return string(s), err
	}
	for {
		pin, err := str()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		var o ReleaseOffice
		o.Pincode = Pincode(pin)
		if err == nil {
			o.Name, err = str()
		}
		if err == nil {
			o.OfficeType, err = str()
		}
		var has byte
		if err == nil {
			has, err = r.ReadByte()
		}
		if err == nil && has == 1 {
			var ll [16]byte
			_, err = io.ReadFull(r, ll[:])
			o.Location = &Location{Latitude: math.Float64frombits(binary.LittleEndian.Uint64(ll[:8])),
				Longitude: math.Float64frombits(binary.LittleEndian.Uint64(ll[8:]))}
		}
		if err != nil {
			return nil, fmt.Errorf("postal: release offices: office %d: %w", len(out)+1, err)
		}
		out = append(out, o)
	}
}
