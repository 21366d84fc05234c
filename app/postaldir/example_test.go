package postaldir_test

import (
	"context"
	"fmt"
	"testing/fstest"

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
