package postaldir_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing/fstest"

	"github.com/pinsight/pinsight/app/bulk"
	"github.com/pinsight/pinsight/app/postaldir"
	"github.com/pinsight/pinsight/domain/paging"
	"github.com/pinsight/pinsight/geo"
)

// Open loads the embedded snapshot; the directory answers lookups, nearby
// and search queries.
func Example() {
	ctx := context.Background()
	dir, err := postaldir.Open(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	head, _ := dir.Details(ctx, "110001", "") // the head office of a PIN
	fmt.Println(head.Name, head.Pincode, head.District)

	near, _ := dir.Nearby(ctx, geo.NearQuery{Point: geo.Point{Lat: 28.6328, Lon: 77.2197}, RadiusKm: 2, Limit: 2})
	for _, n := range near.Offices {
		fmt.Printf("%s %s %.2f km\n", n.Office.Name, n.Office.Pincode, n.DistanceKm)
	}

	found, _ := dir.SearchOffices(ctx, "connaught", paging.Page{}) // the first page of 10
	fmt.Println(found.Total, found.Items[0].Name)
	// Output:
	// New Delhi GPO 110001 New Delhi
	// Connaught Place SO 110001 0.18 km
	// Minto Road SO 110002 0.25 km
	// 1 Connaught Place SO
}

// OpenFS loads the files of a folder (here in memory) by their published
// names.
func ExampleOpenFS() {
	csv := "circlename,regionname,divisionname,officename,pincode,officetype,delivery,district,statename,latitude,longitude\n" +
		"Bihar Circle,Patna HQ,Patna,Patna G.P.O.,800001,HO,Delivery,PATNA,BIHAR,25.6100,85.1400\n" +
		"Bihar Circle,Patna HQ,Patna,Gandhi Maidan S.O,800001,PO,Delivery,PATNA,BIHAR,25.6190,85.1450\n"
	files := fstest.MapFS{"all_india_pincode_directory.csv": {Data: []byte(csv)}}
	ctx := context.Background()
	dir, err := postaldir.OpenFS(ctx, files)
	if err != nil {
		fmt.Println(err)
		return
	}
	pin, offices, _ := dir.Lookup(ctx, "800001")
	fmt.Println(pin, len(offices), offices[0].Name, offices[1].Name)
	// Output: 800001 2 Gandhi Maidan S.O Patna G.P.O.
}

// Autocomplete suggests offices as the user types, forgiving typing errors,
// spacing and the office-type suffix; with a point, nearer offices first.
func ExamplePostal_Autocomplete() {
	ctx := context.Background()
	dir, err := postaldir.Open(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	found, _ := dir.Autocomplete(ctx, "conaught pl", 1, nil) // one letter missing
	for _, s := range found {
		fmt.Println(s.Office.Name, s.Office.Pincode, s.Kind, s.Edits)
	}
	near := geo.Point{Lat: 18.43, Lon: 79.13} // Karimnagar, Telangana
	found, _ = dir.Autocomplete(ctx, "ram nagar", 1, &near)
	for _, s := range found {
		fmt.Println(s.Office.Name, s.Office.Pincode, s.Office.District, s.Kind)
	}
	// Output:
	// Connaught Place SO 110001 fuzzy 1
	// Ramnagar S.O 505001 Karimnagar exact
}

// Distance measures between PINs (their head office), DIGIPINs (their
// cell's centre) and points, with the initial bearing.
func ExamplePostal_Distance() {
	ctx := context.Background()
	dir, err := postaldir.Open(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _ := dir.Distance(ctx, "110001", "560001")
	fmt.Printf("%s to %s: %.0f km, bearing %.0f°\n", res.From.Office.Name, res.To.Office.Name, res.Km, res.BearingDeg)
	res, _ = dir.Distance(ctx, "39J-49L-L8T4", "28.6139,77.2090")
	fmt.Printf("%s %s to %s: %.2f km\n", res.From.Kind, res.From.Digipin, res.To.Kind, res.Km)
	_, err = dir.Distance(ctx, "somewhere", "110001")
	fmt.Println(err)
	// Output:
	// New Delhi GPO to Bengaluru G.P.O.: 1741 km, bearing 179°
	// digipin 39J-49L-L8T4 to point: 1.06 km
	// postal: invalid from: must be a PIN (6 digits, e.g. 110001), a DIGIPIN (10 symbols, dashes optional, e.g. 39J-49L-L8T4) or "latitude,longitude" (e.g. 28.6,77.2)
}

// CellOffices lists the offices in the cell of a DIGIPIN or of a prefix
// (here 6 symbols: a cell about 1 km across), by pincode, then name.
func ExamplePostal_CellOffices() {
	ctx := context.Background()
	dir, err := postaldir.Open(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	cell, found, _ := dir.CellOffices(ctx, "39j-49l", paging.Page{})
	fmt.Println(cell, cell.Level(), found.Total)
	for _, o := range found.Items {
		fmt.Println(o.Pincode, o.Name)
	}
	_, found, _ = dir.CellOffices(ctx, "39J", paging.Page{}) // about 60 km across
	fmt.Println(found.Total, len(found.Items))
	// Output:
	// 39J-49L 6 2
	// 110001 Sansad Marg HO
	// 110069 Union Public Service Commission SO
	// 856 10
}

// BulkPincodes answers a CSV file row by row, writing CSV as it reads.
func ExamplePostal_BulkPincodes() {
	ctx := context.Background()
	dir, err := postaldir.Open(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	in := strings.NewReader("pincode\n110001\n11000A\n999999\n")
	var out strings.Builder
	sum, err := dir.BulkPincodes(ctx, in, &out, bulk.CSV, bulk.Options{})
	fmt.Print(strings.ReplaceAll(out.String(), "\r\n", "\n")) // CSV answers end lines with CRLF
	fmt.Println(sum.Rows, sum.Found, sum.NotFound, sum.Invalid, err)
	// Output:
	// line,pincode,status,offices,head_office,district,state,latitude,longitude,error
	// 2,110001,found,23,New Delhi GPO,New Delhi,Delhi,28.626806,77.20663,
	// 3,11000A,invalid,0,,,,,,must be 6 digits
	// 4,999999,not_found,0,,,,,,no post office has this pincode
	// 3 1 1 1 <nil>
}

// BulkDigipin encodes points (or decodes codes) given as JSON Lines; the
// answer ends with a summary line.
func ExampleBulkDigipin() {
	in := strings.NewReader(`{"latitude": 28.622788, "longitude": 77.213033}` + "\n" +
		`{"latitude": 91, "longitude": 77}` + "\n" + `{"digipin": "39j49ll8t4"}` + "\n")
	_, err := postaldir.BulkDigipin(context.Background(), in, os.Stdout, bulk.JSONLines, bulk.Options{})
	fmt.Println(err)
	// Output:
	// {"line":1,"latitude":28.622788,"longitude":77.213033,"digipin":"39J-49L-L8T4"}
	// {"line":2,"latitude":91,"longitude":77,"error":"latitude must be a finite number from 2.5 to 38.5"}
	// {"line":3,"latitude":28.622793,"longitude":77.213049,"digipin":"39J-49L-L8T4"}
	// {"summary":{"rows":3,"succeeded":2,"failed":1,"complete":true}}
	// <nil>
}
