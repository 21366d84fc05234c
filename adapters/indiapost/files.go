package indiapost

import (
	"encoding/binary"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/pinsight/pinsight/domain/postal"
)

// Columns of each official file.
var (
	directoryColumns = []string{"circlename", "regionname", "divisionname", "officename", "pincode", "officetype", "delivery", "district", "statename", "latitude", "longitude"}
	stateColumns     = []string{"state_code", "state_name"}
	districtColumns  = []string{"district_code", "district_name", "state_code"}
	villageColumns   = []string{"stateCode", "stateNameEnglish", "districtCode", "districtNameEnglish", "subdistrictNameEnglish", "villageCode", "villageNameEnglish", "pincode"}
)

// ReadDirectory reads the All India Pincode Directory (data.gov.in columns)
// from r; name identifies it in the summary and in errors.
func ReadDirectory(r io.Reader, name string) ([]postal.RawOffice, Summary, error) {
	out := make([]postal.RawOffice, 0, rowsHint(r, directoryRowBytes))
	var circles, regions, divisions, pins, types, deliveries, districts, states interner
	s, err := readCSV(r, name, directoryColumns, func(_ int, get func(string) string) error {
		out = append(out, postal.RawOffice{
			Row: len(out) + 1, Circle: circles.get(get("circlename")), Region: regions.get(get("regionname")), Division: divisions.get(get("divisionname")),
			Name: strings.Clone(get("officename")), Pincode: pins.get(get("pincode")), OfficeType: types.get(get("officetype")), Delivery: deliveries.get(get("delivery")),
			District: districts.get(get("district")), State: states.get(get("statename")),
		})
		o := &out[len(out)-1]
		o.Latitude, o.Longitude = pair(get("latitude"), get("longitude"))
		return nil
	})
	return out, s, err
}

// ReadStates reads the LGD states export from r.
func ReadStates(r io.Reader, name string) ([]postal.LGDState, Summary, error) {
	var out []postal.LGDState
	s, err := readCSV(r, name, stateColumns, func(_ int, get func(string) string) error {
		code, err := strconv.Atoi(get("state_code"))
		if err != nil || code <= 0 || get("state_name") == "" {
			return fmt.Errorf("bad state row (code %q)", get("state_code"))
		}
		out = append(out, postal.LGDState{Code: code, Name: get("state_name")})
		return nil
	})
	return out, s, err
}

// ReadDistricts reads an LGD districts export (current or legacy: both have
// district_code, district_name and state_code) from r.
func ReadDistricts(r io.Reader, name string) ([]postal.LGDDistrict, Summary, error) {
	var out []postal.LGDDistrict
	s, err := readCSV(r, name, districtColumns, func(_ int, get func(string) string) error {
		code, err1 := strconv.Atoi(get("district_code"))
		state, err2 := strconv.Atoi(get("state_code"))
		if err1 != nil || err2 != nil || code <= 0 || get("district_name") == "" {
			return fmt.Errorf("bad district row (code %q, state %q)", get("district_code"), get("state_code"))
		}
		out = append(out, postal.LGDDistrict{Code: code, Name: get("district_name"), StateCode: state})
		return nil
	})
	return out, s, err
}

// ReadVillages reads the LGD "Villages with PIN Codes" export from r.
func ReadVillages(r io.Reader, name string) ([]postal.RawVillage, Summary, error) {
	out := make([]postal.RawVillage, 0, rowsHint(r, villageRowBytes))
	var stateCodes, stateNames, districtCodes, districtNames, subdistricts, pins interner
	s, err := readCSV(r, name, villageColumns, func(_ int, get func(string) string) error {
		code, village := pair(get("villageCode"), get("villageNameEnglish"))
		out = append(out, postal.RawVillage{
			Row: len(out) + 1, StateCode: stateCodes.get(get("stateCode")), StateName: stateNames.get(get("stateNameEnglish")),
			DistrictCode: districtCodes.get(get("districtCode")), DistrictName: districtNames.get(get("districtNameEnglish")),
			SubdistrictName: subdistricts.get(get("subdistrictNameEnglish")), VillageCode: code,
			VillageName: village, Pincode: pins.get(get("pincode")),
		})
		return nil
	})
	return out, s, err
}

// Average row sizes of the directory and village files, rounded down a
// little, so that capacity estimated from a file's size is rarely short.
const (
	directoryRowBytes = 120
	villageRowBytes   = 64
)

// rowsHint estimates the rows of r from its uncompressed size and the
// average size of its rows, to size the slice once: the gzip trailer
// records it. It needs a file that can tell its size and be read at an
// offset (an *os.File, an embedded file); other readers get no hint.
func rowsHint(r io.Reader, rowBytes int64) int {
	f, ok := r.(interface {
		io.ReaderAt
		Stat() (fs.FileInfo, error)
	})
	if !ok {
		return 0
	}
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	size := st.Size()
	var magic [2]byte
	if _, err := f.ReadAt(magic[:], 0); err == nil && magic == [2]byte{0x1f, 0x8b} && size > 4 {
		var trailer [4]byte
		if _, err := f.ReadAt(trailer[:], size-4); err == nil {
			size = int64(binary.LittleEndian.Uint32(trailer[:])) // ISIZE: size mod 2^32
		}
	}
	return int(min(size/rowBytes, 1<<22))
}

// pair copies a and b into one string (one allocation instead of two, and
// none of the row they were read from kept alive).
func pair(a, b string) (string, string) {
	both := a + b
	return both[:len(a)], both[len(a):]
}

// interner hands out one copy of each distinct string of a column: the
// files repeat their circles, regions, divisions, districts, states,
// office types and PINs row after row (often on consecutive rows), and the
// rows' strings would otherwise each keep their whole row alive.
type interner struct {
	last string
	seen map[string]string
}

func (in *interner) get(s string) string {
	if s == in.last {
		return in.last
	}
	v, found := in.seen[s]
	if !found {
		if in.seen == nil {
			in.seen = map[string]string{}
		}
		v = strings.Clone(s)
		in.seen[v] = v
	}
	in.last = v
	return v
}
