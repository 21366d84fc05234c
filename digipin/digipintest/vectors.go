// Package digipintest holds reference vectors for DIGIPIN implementations,
// produced by running India Post's official code (Department of Posts,
// CEPT-VZG/digipin, src/digipin.js, 2025 revision, Apache-2.0): corners,
// grid lines and known places. The 2026 revision writes the same cells
// without hyphens (strip them for that form). Use them to check an encoder
// or decoder, as digipin's own tests and the HTTP API's tests do.
package digipintest

// EncodeVector is a point and the code the official encoder gives it.
type EncodeVector struct {
	Lat, Lon string // as written in the official tests (decimal text)
	Code     string // XXX-XXX-XXXX
}

// DecodeVector is a code and the centre of its cell as the official decoder
// prints it (6 decimals).
type DecodeVector struct {
	Code     string // XXX-XXX-XXXX
	Lat, Lon string
}

// Encode lists the encoding vectors.
var Encode = []EncodeVector{
	{"2.5", "63.5", "LLL-LLL-LLLL"},
	{"2.5", "99.5", "TTT-TTT-TTTT"},
	{"38.5", "63.5", "FFF-FFF-FFFF"},
	{"38.5", "99.5", "888-888-8888"},
	{"38.49999999999999", "99.49999999999999", "888-888-8888"},
	{"28.622788", "77.213033", "39J-49L-L8T4"},
	{"12.9716", "77.5946", "4P3-JK8-52C9"},
	{"28.6139", "77.209", "39J-438-TJC7"},
	{"19.076", "72.8777", "4FK-595-8823"},
	{"13.0827", "80.2707", "4T3-84L-L5L9"},
	{"22.5726", "88.3639", "2TF-J7F-86MM"},
	{"29.5", "90.5", "8LL-LLL-LLLL"},
	{"20.5", "81.5", "2LL-LLL-LLLL"},
	{"20.499999999999996", "81.49999999999999", "488-888-8888"},
	{"11.5", "65.17697650223923", "KLP-TTP-TLTM"},
	{"11.499999999999998", "65.17697650223923", "LF9-889-8F8C"},
	{"33.40486452575246", "81.5", "9KJ-FFL-KLJK"},
	{"33.40486452575246", "81.49999999999999", "C67-88T-6T76"},
	{"38.5", "72.5", "CFF-FFF-FFFF"},
	{"29.5", "99.5", "8TT-TTT-TTTT"},
	{"13.75", "74.75", "44L-LLL-LLLL"},
	{"25.433839797973633", "70.1379566192627", "J2T-8L6-4KFL"},
	{"25.433822631835938", "70.137939453125", "J2T-8L6-4KFL"},
	{"6.1975272298816755", "85.68673129819788", "P47-36L-3CP7"},
	{"34.90328358218618", "98.46129746163736", "875-J53-8MK3"},
	{"22.591896558378778", "79.19441028112625", "3P8-793-PPTJ"},
	{"26.70863920654628", "98.6236270093188", "779-MTJ-4J5C"},
	{"31.727195425437756", "92.16138448679197", "8L9-884-KJ48"},
	{"28.78929352154947", "65.32381725625574", "JF7-J88-PJL9"},
	{"4.122712039488153", "94.6775670164691", "TM7-C2T-33LL"},
}

// Decode lists the decoding vectors.
var Decode = []DecodeVector{
	{"FFF-FFF-FFFF", "38.499983", "63.500017"},
	{"CCC-CCC-CCCC", "38.499983", "75.500006"},
	{"999-999-9999", "38.499983", "87.499994"},
	{"888-888-8888", "38.499983", "99.499983"},
	{"JJJ-JJJ-JJJJ", "26.499994", "63.500017"},
	{"333-333-3333", "26.499994", "75.500006"},
	{"222-222-2222", "26.499994", "87.499994"},
	{"777-777-7777", "26.499994", "99.499983"},
	{"KKK-KKK-KKKK", "14.500006", "63.500017"},
	{"444-444-4444", "14.500006", "75.500006"},
	{"555-555-5555", "14.500006", "87.499994"},
	{"666-666-6666", "14.500006", "99.499983"},
	{"LLL-LLL-LLLL", "2.500017", "63.500017"},
	{"MMM-MMM-MMMM", "2.500017", "75.500006"},
	{"PPP-PPP-PPPP", "2.500017", "87.499994"},
	{"TTT-TTT-TTTT", "2.500017", "99.499983"},
	{"39J-49L-L8T4", "28.622793", "77.213049"},
	{"4P3-JK8-52C9", "12.971601", "77.594584"},
	{"39J-438-TJC7", "28.613901", "77.208998"},
	{"4FK-595-8823", "19.075983", "72.877707"},
	{"FFF-FFT-TTTT", "38.464861", "63.535139"},
	{"LMF-6FK-K54T", "4.445284", "66.173231"},
	{"6CC-LKF-8KKJ", "20.006388", "93.319109"},
	{"FT8-6C7-J3P6", "31.456717", "72.421843"},
	{"CCF-CLF-JL2M", "38.390429", "74.890951"},
	{"625-CF3-8C5C", "17.115919", "96.281881"},
	{"2T5-759-7CL3", "21.411402", "89.891958"},
	{"9C4-K59-P2F2", "37.016245", "84.405970"},
	{"59F-L67-6F9F", "19.994612", "86.138720"},
	{"FP7-K4M-576M", "30.804232", "69.737951"},
}
