package httpapi

import (
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// envelopePrefix starts the name huma gives the schema of envelope[T]: the
// name of T's schema follows it.
const envelopePrefix = "Envelope"

// schemaDescriptions describes each named schema of the OpenAPI document
// but the success envelopes (described by describeSchemas from the schema
// they carry): what the object is, keyed by the schema's name.
var schemaDescriptions = map[string]string{
	// Accounts.
	"AccountData":           "The caller's account: its user and the API key that authenticated the request.",
	"CredentialsInputBody":  "An e-mail address and a password: an account to create (register) or to log in to (login, which may also name the key it mints).",
	"KeyData":               "An API key without the key itself: its id, name, prefix (the start of the key, to tell keys apart), creation time and last use.",
	"KeysData":              "The caller's API keys.",
	"RotateInputBody":       "Optional: the name of the key a rotation mints.",
	"TokenData":             "A newly minted API key: token is the key itself, shown this once, to send as Authorization: Bearer <token>; key describes it and user is its owner.",
	"UserData":              "A user account: its id, e-mail address and creation time.",
	"DeletedData":           "Confirms a deletion: the id of what was deleted, and deleted true.",
	"ErrorBody":             "The failure envelope of every endpoint: success false, a machine-readable code, a message, and errors keyed by field (at most 20; errors_truncated counts those left out).",
	"HealthData":            "The liveness answer: status is always ok.",
	"ReadyData":             "The readiness answer: the state of every component and the version of the server's build.",
	"ComponentState":        "The outcome of one component's readiness check: its name, whether it is ready, its state and, when it is not plainly ready, a fixed explanation.",
	"Meta":                  "The pagination block of a paginated list: the current page, the page size, the total number of items and the last page.",
	"LocationData":          "A point in decimal degrees.",
	"BoundsData":            "A latitude / longitude box in decimal degrees.",
	"GeoJSONRect":           "A GeoJSON Polygon geometry: one closed ring of [longitude, latitude] positions.",
	"CandidateData":         "One match of an ambiguous state or district name: its id and name.",
	"StateRef":              "A state named by its id and name.",
	"CleaningReport":        "What cleaning the published directory did, counted: every row read is an office, a duplicate row, a row with an invalid pincode or a malformed row.",
	"DatasetData":           "The served dataset: where it was read from, its release and files, licence, version, counts and cleaning.",
	"DatasetFileData":       "One file of the served dataset: its role, name, publication date, rows read and SHA-256.",
	"ReleaseData":           "One release of the post office directory as the server loaded it.",
	"ChangeData":            "One change a release of the directory brought: a pincode or an office added or removed, or an office renamed, retyped or moved, with what it was before and after.",
	"ChangesData":           "A page of the changes the releases after a given one brought to the directory.",
	"OfficeData":            "A post office record: its name, type, pincode, delivery status, circle, region, division, district, state, location and DIGIPIN when known, with its live reviews, likes and rating.",
	"PincodeData":           "A pincode with the post offices it covers.",
	"PincodeBatchInputBody": "The pincodes of a batch lookup.",
	"PincodeBatchData":      "The outcome of a batch lookup: one item per pincode, in request order.",
	"PincodeBatchItem":      "The outcome of one pincode of a batch: its offices, or why it failed.",
	"PincodeValidateData":   "The checks of a batch of pincodes, in request order.",
	"PincodeValidateItem":   "Whether one pincode is well-formed and exists in the dataset.",
	"SearchData":            "A page of post offices whose names match a search.",
	"NearbyData":            "The post offices within a radius of a point, nearest first; when none lay within it, the closest at any distance.",
	"NearbyOffice":          "The reduced office record of the nearby lists, with its distance from the point.",
	"AutocompleteData":      "The suggestions for a partly typed query, best first.",
	"SuggestionData":        "One autocomplete suggestion: the text to show, the office it stands for and what matched.",
	"SuggestionMatch":       "What part of the suggested office matched the query, and how.",
	"SuggestionOffice":      "The office of an autocomplete suggestion.",
	"DistanceData":          "The great-circle distance and initial bearing between two places, with what each side resolved to.",
	"EndpointData":          "What one side of a distance request resolved to: the place and its point.",
	"VillageData":           "A village of the LGD villages file and the PIN serving it.",
	"VillagesData":          "A page of the villages a pincode serves.",
	"VillageSearchData":     "A page of villages whose names match a search.",
	"StateData":             "A state or union territory with its counts.",
	"StatesData":            "States and union territories with their counts.",
	"StateDistrictsData":    "A state's districts.",
	"DistrictItem":          "A district in a state's list, with its counts.",
	"DistrictData":          "A district with its state and counts.",
	"DistrictPincodesData":  "A page of the post offices of a district.",
	"LikeData":              "The caller's like of a post office, with the office's counts after it.",
	"ReviewData":            "A review of a post office. Its title and text are returned exactly as written (JSON-encoded): escape them when rendering HTML.",
	"ReviewsData":           "A page of reviews.",
	"ReviewPutInputBody":    "A review to write or replace: a rating of 1 to 5 with an optional title and text.",
	"ReviewDeletedData":     "Confirms the deletion of the caller's review of an office.",

	// DIGIPIN.
	"EncodeInputBody":      "A point to encode, as latitude and longitude in decimal degrees or as point in a looser syntax, with an optional precision (the number of symbols of a prefix).",
	"EncodeData":           "The DIGIPIN of a point, at full precision or as a prefix, with the point and, for a prefix, its cell's extent.",
	"DecodeInputBody":      "A DIGIPIN to decode.",
	"DecodeData":           "The centre and extent of a DIGIPIN's cell.",
	"ValidateData":         "Whether a DIGIPIN is well-formed, with its formatted code or the reason it is not.",
	"InfoData":             "Fixed facts of the DIGIPIN grid: its bounds, its 4 x 4 grid of symbols, the valid characters, the code format, the DIGIPIN operations and the cell size at each level.",
	"LevelData":            "The cell size of codes (or prefixes) of one length.",
	"CellData":             "A grid cell: its symbols, level, centre and extent.",
	"NeighboursData":       "A cell with the cells around it at the same level.",
	"NearestData":          "A point's DIGIPIN with the post offices serving it.",
	"NearestOffice":        "A post office near a point, with how it was matched.",
	"CellOfficesData":      "A page of the post offices located in a DIGIPIN cell.",
	"EncodeBatchInputBody": "The points of a batch encoding.",
	"DecodeBatchInputBody": "The codes of a batch decoding.",
	"BatchPoint":           "One point of a batch encoding, in decimal degrees; its fields are checked per item.",
	"BatchDataEncodeData":  "The outcome of a batch encoding: counts, and one item per point in request order.",
	"BatchDataDecodeData":  "The outcome of a batch decoding: counts, and one item per code in request order.",
	"BatchItemEncodeData":  "The outcome of one point of a batch encoding: its result, or per-field errors.",
	"BatchItemDecodeData":  "The outcome of one code of a batch decoding: its result, or per-field errors.",

	// Site analysis.
	"ReportCreateInputBody": "A page to analyse: its URL, with optional project, privacy, password, rendering, screenshots and schedule.",
	"ReportUpdateInputBody": "Changes to a report: privacy, password, schedule, or a new analysis.",
	"ReportBatchInputBody":  "The URLs of a batch of reports to queue, with the settings they share.",
	"ReportBatchData":       "The reports a batch queued, in the order of its URLs.",
	"ReportData":            "One report: the analysis of a page, its lifecycle (status, attempts, failure) and its checks.",
	"ReportItem":            "A report as lists show it: every field of a report but its checks.",
	"ReportsData":           "A page of reports.",
	"ResultsData":           "A report's checks grouped by category, each in check order.",
	"CheckData":             "One check of a report: what was checked, its outcome and what was found.",
	"ScreenshotsData":       "The paths of a report's screenshots, each absent when the report keeps none of its kind.",
	"HistoryData":           "A report's runs, newest first.",
	"RunData":               "One finished analysis of a report, with the checks it broke and fixed since the run before.",
	"AiAccessData":          "Whether the site's robots.txt lets one AI crawler in.",
	"LlmsTxtData":           "The state of the site's /llms.txt.",
	"LlmsFindingData":       "A way the site's /llms.txt departs from the llmstxt.org format.",
	"Rendering":             "What a rendered analysis adds: how the page a browser built differs from its raw HTML, what it loaded and its lab performance. Lists are bounded, with their totals beside them.",
	"FieldChange":           "One field of a page as its raw HTML and its rendered DOM give it, and whether they differ.",
	"Loaded":                "What a rendered page loaded: its requests by resource type, those that failed, were refused or are disallowed by robots.txt, and its console errors. Lists are bounded; the totals count everything.",
	"TypeLoad":              "The requests a rendered page made for one resource type.",
	"FailedRequest":         "A request of a rendered page that failed: its HTTP status (0 when there was no response) and the browser's error text, or http_error for a status of 400 or more.",
	"BlockedRequest":        "A request of a rendered page that the site's robots.txt disallows, with the rule that matched.",
	"ConsoleMessage":        "A console error or an uncaught exception of a rendered page, with the script it came from when known.",
	"Lab":                   "A rendered page's lab performance, each measurement graded.",
	"Metric":                "One lab measurement and its grade.",
	"ProjectData":           "One project: the reports of one site, summarised.",
	"ProjectsData":          "A page of projects.",
	"ProjectDeletedData":    "Confirms the deletion of a project and says how many reports went with it.",

	// Crawls.
	"CrawlCreateInputBody": "A crawl to start: its start URL and its settings.",
	"CrawlUpdateInputBody": "A crawl's new schedule.",
	"CrawlData":            "One crawl of a site with its settings, progress and what it found.",
	"CrawlItem":            "A crawl as lists show it.",
	"CrawlsData":           "A page of crawls.",
	"CrawlSettingsData":    "A crawl's settings as accepted (its request headers are never shown back).",
	"CrawlProgressData":    "A crawl's URLs counted: discovered, crawled, failed, blocked by robots.txt, and those not queued or whose links were not read.",
	"CrawlPageData":        "One crawled page with its full audit.",
	"CrawlPageItem":        "A crawled URL as the page list shows it.",
	"CrawlPagesData":       "A page of a crawl's crawled URLs.",
	"CrawlIssueData":       "One site-level issue a crawl found.",
	"CrawlIssuesData":      "A page of a crawl's issues.",
	"CrawlDiffData":        "The issues of a crawl compared with those of an earlier crawl of the same site: new, fixed and persisting.",
	"DiffTypeData":         "The issues of one type in one part of a crawl comparison.",
	"IssueCountData":       "How many issues of one type a crawl found.",
	"CheckCountData":       "How many crawled pages fail one page check.",
	"RenderCountData":      "How many pages a rendered crawl rendered, or did not, for one reason.",

	// Webhooks.
	"WebhookInputBody": "A webhook to create: the URL to POST events to, the secret that signs them (16 characters or more) and the events to send.",
	"WebhookData":      "One of the caller's webhooks. The secret is shown once, in the answer that creates it; afterwards only its prefix.",
	"WebhooksData":     "The caller's webhooks.",
	"DeliveryData":     "One delivery of an event to a webhook: its status, attempts, last error and the status of the last response.",
	"DeliveriesData":   "A webhook's deliveries, newest first.",
}

// describeSchemas gives every schema of registry a description: its own
// when huma set one, else schemaDescriptions' or, for a success envelope,
// one naming the schema it carries. A schema none of them describes stays
// bare (the OpenAPI document test names it).
func describeSchemas(registry huma.Registry) {
	for name, s := range registry.Map() {
		if s.Description != "" {
			continue
		}
		if d, found := schemaDescriptions[name]; found {
			s.Description = d
		} else if data, isEnvelope := strings.CutPrefix(name, envelopePrefix); isEnvelope && data != "" {
			s.Description = "The success envelope: success is always true and data holds the " + data + " object."
		}
	}
}
