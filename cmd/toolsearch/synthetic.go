package main

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"

	"github.com/toolsearch/toolsearch/search"
)

// Synthetic catalogs for benchmarks: N tools built deterministically from
// word lists of services, actions and objects, so that 10k- and 100k-tool
// runs need no data files and every run of the same N and seed measures the
// same catalog. Names look like MCP tools ("jira__create_issue"),
// descriptions are sentences in the vocabulary of real tool catalogs (every
// word is one the built-in model knows), and queries are drawn the same way,
// phrased as an agent would ask ("how do i remove an invoice in stripe").

// synthService is a server of a synthetic catalog: its name and the domain
// phrase descriptions use.
type synthService struct{ name, domain string }

var synthServices = []synthService{
	{"github", "code repositories"}, {"gitlab", "code repositories"}, {"bitbucket", "code repositories"},
	{"jira", "project tracking"}, {"linear", "issue tracking"}, {"asana", "team projects"},
	{"trello", "boards"}, {"notion", "team documents"}, {"confluence", "team wiki"},
	{"slack", "team chat"}, {"discord", "community chat"}, {"teams", "workplace chat"},
	{"gmail", "email"}, {"outlook", "email and calendar"}, {"calendar", "schedules"},
	{"zoom", "video meetings"}, {"drive", "cloud storage"}, {"dropbox", "file storage"},
	{"box", "enterprise files"}, {"sheets", "spreadsheets"}, {"docs", "documents"},
	{"stripe", "payments"}, {"paypal", "online payments"}, {"shopify", "online stores"},
	{"quickbooks", "accounting"}, {"xero", "bookkeeping"}, {"salesforce", "customer relationships"},
	{"hubspot", "marketing"}, {"zendesk", "customer support"}, {"intercom", "customer messaging"},
	{"twilio", "text messages and calls"}, {"sendgrid", "email delivery"}, {"mailchimp", "email campaigns"},
	{"aws", "cloud infrastructure"}, {"gcp", "cloud services"}, {"azure", "cloud resources"},
	{"kubernetes", "container clusters"}, {"docker", "containers"}, {"terraform", "infrastructure"},
	{"datadog", "monitoring"}, {"sentry", "error tracking"}, {"pagerduty", "incident response"},
	{"postgres", "relational databases"}, {"mysql", "databases"}, {"mongodb", "document databases"},
	{"redis", "key value storage"}, {"elasticsearch", "search indexes"}, {"snowflake", "data warehouses"},
	{"spotify", "music streaming"}, {"youtube", "videos"}, {"twitter", "social posts"},
	{"reddit", "online communities"}, {"weather", "weather forecasts"}, {"maps", "places and directions"},
	{"uber", "rides"}, {"airbnb", "travel stays"}, {"booking", "hotel reservations"},
	{"flights", "air travel"}, {"news", "news articles"}, {"finance", "stock markets"},
	{"crypto", "cryptocurrency markets"}, {"translate", "language translation"}, {"wikipedia", "encyclopedia articles"},
	{"arxiv", "research papers"}, {"filesystem", "local files"}, {"browser", "web pages"},
	{"figma", "design files"}, {"canva", "graphic designs"}, {"airtable", "shared databases"},
	{"workday", "human resources"}, {"greenhouse", "recruiting"}, {"okta", "identity management"},
}

// synthAction is a verb of tool names, the phrase descriptions use, and
// the words queries use for it.
type synthAction struct {
	verb     string   // in the tool name: create, list …
	phrase   string   // in the description: "Creates a new"
	synonyms []string // in queries
}

var synthActions = []synthAction{
	{"create", "Creates a new", []string{"create", "make", "add", "new"}},
	{"get", "Gets the details of a", []string{"get", "show", "fetch", "look up"}},
	{"list", "Lists every", []string{"list", "show all", "browse", "enumerate"}},
	{"update", "Updates the fields of an existing", []string{"update", "edit", "change", "modify"}},
	{"delete", "Permanently deletes a", []string{"delete", "remove", "erase", "drop"}},
	{"search", "Searches for a", []string{"search", "find", "look for", "query"}},
	{"archive", "Archives a", []string{"archive", "hide", "put away"}},
	{"restore", "Restores a previously archived", []string{"restore", "recover", "bring back", "undelete"}},
	{"export", "Exports a", []string{"export", "download", "save a copy of"}},
	{"import", "Imports a", []string{"import", "upload", "load"}},
	{"share", "Shares a", []string{"share", "give access to", "send a link to"}},
	{"assign", "Assigns an owner to a", []string{"assign", "give", "hand over"}},
	{"comment", "Adds a comment to a", []string{"comment on", "reply to", "note on"}},
	{"approve", "Approves a pending", []string{"approve", "accept", "sign off"}},
	{"reject", "Rejects a pending", []string{"reject", "decline", "deny"}},
	{"schedule", "Schedules a", []string{"schedule", "plan", "book"}},
	{"cancel", "Cancels a scheduled", []string{"cancel", "call off", "abort"}},
	{"send", "Sends a", []string{"send", "deliver", "dispatch"}},
	{"count", "Counts the number of", []string{"count", "how many", "tally"}},
	{"merge", "Merges two duplicate", []string{"merge", "combine", "join"}},
	{"copy", "Makes a copy of a", []string{"copy", "duplicate", "clone"}},
	{"move", "Moves a", []string{"move", "transfer", "relocate"}},
	{"rename", "Renames a", []string{"rename", "retitle", "change the name of"}},
	{"tag", "Adds labels to a", []string{"tag", "label", "categorize"}},
	{"watch", "Subscribes to changes of a", []string{"watch", "follow", "subscribe to"}},
	{"summarize", "Summarizes the activity of a", []string{"summarize", "recap", "overview of"}},
	{"validate", "Validates the contents of a", []string{"validate", "check", "verify"}},
	{"sync", "Synchronizes a", []string{"sync", "synchronize", "refresh"}},
	{"lock", "Locks a", []string{"lock", "freeze", "protect"}},
	{"publish", "Publishes a draft", []string{"publish", "release", "make public"}},
}

// synthObject is a thing tools act on: its words (joined with "_" in the
// name) and the parameters a tool on it takes.
type synthObject struct {
	words  string
	params []string
}

var synthObjects = []synthObject{
	{"issue", []string{"title", "body", "labels", "assignee"}},
	{"pull request", []string{"title", "branch", "reviewers"}},
	{"repository", []string{"owner", "name", "visibility"}},
	{"branch", []string{"name", "base", "protected"}},
	{"commit", []string{"sha", "message", "author"}},
	{"release", []string{"tag", "notes", "draft"}},
	{"project", []string{"name", "owner", "deadline"}},
	{"task", []string{"title", "due date", "priority"}},
	{"board", []string{"name", "columns"}},
	{"card", []string{"title", "list", "members"}},
	{"page", []string{"title", "content", "parent"}},
	{"document", []string{"title", "content", "folder"}},
	{"spreadsheet", []string{"name", "range", "values"}},
	{"message", []string{"channel", "text", "thread"}},
	{"channel", []string{"name", "topic", "private"}},
	{"thread", []string{"channel", "parent", "text"}},
	{"email", []string{"recipient", "subject", "body"}},
	{"draft", []string{"subject", "body", "recipients"}},
	{"contact", []string{"name", "email", "phone"}},
	{"calendar event", []string{"start time", "end time", "attendees"}},
	{"meeting", []string{"topic", "start time", "duration"}},
	{"recording", []string{"meeting", "format"}},
	{"file", []string{"path", "content", "encoding"}},
	{"folder", []string{"path", "parent", "recursive"}},
	{"invoice", []string{"customer", "amount", "currency", "due date"}},
	{"payment", []string{"amount", "currency", "method"}},
	{"refund", []string{"payment", "amount", "reason"}},
	{"subscription", []string{"customer", "plan", "interval"}},
	{"customer", []string{"name", "email", "address"}},
	{"order", []string{"items", "customer", "shipping address"}},
	{"product", []string{"name", "price", "stock"}},
	{"discount code", []string{"code", "percent", "expiry"}},
	{"account", []string{"name", "owner", "status"}},
	{"lead", []string{"name", "company", "source"}},
	{"deal", []string{"name", "stage", "value"}},
	{"ticket", []string{"subject", "priority", "requester"}},
	{"conversation", []string{"participant", "status"}},
	{"campaign", []string{"name", "audience", "send time"}},
	{"audience", []string{"name", "filters"}},
	{"text message", []string{"to", "from", "body"}},
	{"phone call", []string{"to", "from", "recording"}},
	{"virtual machine", []string{"name", "region", "size"}},
	{"storage bucket", []string{"name", "region", "versioning"}},
	{"database", []string{"name", "engine", "size"}},
	{"table", []string{"schema", "name", "columns"}},
	{"query", []string{"sql", "timeout", "parameters"}},
	{"backup", []string{"database", "retention"}},
	{"cluster", []string{"name", "region", "nodes"}},
	{"pod", []string{"namespace", "name", "container"}},
	{"deployment", []string{"namespace", "image", "replicas"}},
	{"container", []string{"image", "ports", "environment"}},
	{"image", []string{"repository", "tag", "platform"}},
	{"secret", []string{"name", "value", "namespace"}},
	{"dashboard", []string{"title", "widgets", "time range"}},
	{"alert", []string{"metric", "threshold", "severity"}},
	{"incident", []string{"title", "severity", "responder"}},
	{"log entry", []string{"service", "level", "time range"}},
	{"metric", []string{"name", "aggregation", "time range"}},
	{"user", []string{"email", "role", "team"}},
	{"team", []string{"name", "members"}},
	{"role", []string{"name", "permissions"}},
	{"api key", []string{"name", "scopes", "expiry"}},
	{"webhook", []string{"url", "events", "secret"}},
	{"playlist", []string{"name", "tracks", "public"}},
	{"song", []string{"title", "artist", "album"}},
	{"video", []string{"title", "channel", "duration"}},
	{"post", []string{"text", "media", "visibility"}},
	{"forecast", []string{"location", "days", "units"}},
	{"location", []string{"address", "latitude", "longitude"}},
	{"route", []string{"origin", "destination", "mode"}},
	{"ride", []string{"pickup", "dropoff", "seats"}},
	{"reservation", []string{"guest", "check in date", "nights"}},
	{"flight", []string{"origin", "destination", "departure date"}},
	{"article", []string{"topic", "source", "language"}},
	{"stock quote", []string{"symbol", "exchange"}},
	{"exchange rate", []string{"base currency", "target currency"}},
	{"translation", []string{"text", "source language", "target language"}},
	{"paper", []string{"title", "authors", "year"}},
	{"web page", []string{"url", "selector", "wait"}},
	{"screenshot", []string{"url", "width", "height"}},
	{"design", []string{"name", "frame", "format"}},
	{"comment", []string{"text", "author", "target"}},
	{"record", []string{"table", "fields", "view"}},
	{"employee", []string{"name", "department", "manager"}},
	{"candidate", []string{"name", "job", "stage"}},
	{"job posting", []string{"title", "location", "salary"}},
	{"group", []string{"name", "members", "policy"}},
	{"report", []string{"name", "period", "format"}},
	{"note", []string{"title", "text", "tags"}},
	{"reminder", []string{"text", "time", "repeat"}},
}

// synthQualifiers tell apart tools that share a service, action and object.
var synthQualifiers = []string{
	"in bulk", "by id", "by name", "for a team", "with filters", "from a template",
	"in a folder", "for the current user", "with attachments", "across workspaces",
	"by date range", "with history", "as a draft", "for an organization", "in the archive",
}

// synthExtras are the second sentence of descriptions.
var synthExtras = []string{
	"Returns the %s as structured data with its identifier.",
	"Use this when the user asks about a %s by name.",
	"Requires permission to manage every %s in the workspace.",
	"Fails with a clear error when the %s does not exist.",
	"Supports pagination when there are many of each %s.",
	"The result includes links to open the %s in the browser.",
	"Changes are recorded in the audit history of the %s.",
	"Rate limited to a few requests per second per %s.",
}

// synthQueryForms are how queries are phrased; %s is the request.
var synthQueryForms = []string{
	"%s", "%s", "please %s", "i need to %s", "how do i %s", "can you %s", "help me %s", "%s for me",
}

// synthTool is one generated tool with the parts queries are drawn from.
type synthTool struct {
	service   int
	action    int
	object    int
	qualifier int // -1 for none
}

// syntheticCatalog builds n tools from seed. The same n and seed always give
// the same tools in the same order; every name is unique.
func syntheticCatalog(n int, seed int64) ([]search.Tool, []synthTool) {
	rng := rand.New(rand.NewSource(seed))
	seen := make(map[string]bool, n)
	tools := make([]search.Tool, 0, n)
	parts := make([]synthTool, 0, n)
	for len(tools) < n {
		p := synthTool{
			service:   rng.Intn(len(synthServices)),
			action:    rng.Intn(len(synthActions)),
			object:    rng.Intn(len(synthObjects)),
			qualifier: -1,
		}
		// Once the plain combinations thin out, qualified ones fill in.
		if len(tools) > 0 && rng.Intn(4) == 0 {
			p.qualifier = rng.Intn(len(synthQualifiers))
		}
		name := p.name()
		if seen[name] {
			continue
		}
		seen[name] = true
		tools = append(tools, p.tool(rng))
		parts = append(parts, p)
	}
	return tools, parts
}

func (p synthTool) name() string {
	s, a, o := synthServices[p.service], synthActions[p.action], synthObjects[p.object]
	name := s.name + "__" + a.verb + "_" + strings.ReplaceAll(o.words, " ", "_")
	if p.qualifier >= 0 {
		name += "_" + strings.ReplaceAll(synthQualifiers[p.qualifier], " ", "_")
	}
	return name
}

// tool builds p's definition; rng picks its extra sentence and parameters.
func (p synthTool) tool(rng *rand.Rand) search.Tool {
	s, a, o := synthServices[p.service], synthActions[p.action], synthObjects[p.object]
	var d strings.Builder
	fmt.Fprintf(&d, "%s %s in %s (%s)", a.phrase, o.words, strings.ToUpper(s.name[:1])+s.name[1:], s.domain)
	if p.qualifier >= 0 {
		d.WriteString(" " + synthQualifiers[p.qualifier])
	}
	d.WriteString(". ")
	fmt.Fprintf(&d, synthExtras[rng.Intn(len(synthExtras))], o.words)
	props := map[string]any{}
	var required []string
	for i, pn := range o.params {
		if i > 0 && rng.Intn(3) == 0 {
			continue
		}
		key := strings.ReplaceAll(pn, " ", "_")
		props[key] = map[string]any{"type": "string", "description": fmt.Sprintf("The %s of the %s.", pn, o.words)}
		if i == 0 {
			required = append(required, key)
		}
	}
	if a.verb == "list" || a.verb == "search" {
		props["limit"] = map[string]any{"type": "integer", "description": "Maximum number of results to return."}
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	return search.Tool{Name: p.name(), Server: s.name, Description: d.String(), InputSchema: schema}
}

// syntheticQueries draws n queries about tools of the catalog (parts, as
// syntheticCatalog returned them), phrased with the actions' synonyms;
// deterministic in seed.
func syntheticQueries(parts []synthTool, n int, seed int64) []string {
	if len(parts) == 0 {
		return nil
	}
	rng := rand.New(rand.NewSource(seed ^ 0x5eed))
	out := make([]string, n)
	for i := range out {
		p := parts[rng.Intn(len(parts))]
		s, a, o := synthServices[p.service], synthActions[p.action], synthObjects[p.object]
		verb := a.synonyms[rng.Intn(len(a.synonyms))]
		req := verb + " " + []string{"a ", "the ", "my ", ""}[rng.Intn(4)] + o.words
		switch rng.Intn(3) {
		case 0:
			req += " in " + s.name
		case 1:
			req += " on " + s.domain
		}
		if p.qualifier >= 0 && rng.Intn(2) == 0 {
			req += " " + synthQualifiers[p.qualifier]
		}
		out[i] = fmt.Sprintf(synthQueryForms[rng.Intn(len(synthQueryForms))], req)
	}
	return out
}

// syntheticPatterns draws n regex-mode patterns about tools of the catalog
// (parts, as syntheticCatalog returned them), deterministic in seed, in the
// shapes an agent writes: a server prefix ("^jira__"), a name
// ("create_ticket"), a verb and object apart ("create_.*ticket"), a suffix
// ("_ticket$"), alternatives ("(list|search)_tickets?"), a server and an
// object ("jira__.*ticket"), a word ("ticket"), a glob ("jira__create_*").
// Each has a literal of at least 3 characters, the case the trigram index
// serves.
func syntheticPatterns(parts []synthTool, n int, seed int64) []string {
	if len(parts) == 0 {
		return nil
	}
	rng := rand.New(rand.NewSource(seed ^ 0x7e9e))
	out := make([]string, n)
	for i := range out {
		p := parts[rng.Intn(len(parts))]
		s, a, o := synthServices[p.service], synthActions[p.action], synthObjects[p.object]
		obj := strings.ReplaceAll(o.words, " ", "_")
		last := obj[strings.LastIndex(obj, "_")+1:]
		other := synthActions[rng.Intn(len(synthActions))].verb
		out[i] = []string{
			"^" + s.name + "__",
			a.verb + "_" + obj,
			a.verb + "_.*" + last,
			"_" + obj + "$",
			"(" + a.verb + "|" + other + ")_" + obj + "s?",
			s.name + "__.*" + last,
			last,
			s.name + "__" + a.verb + "_*",
		}[rng.Intn(8)]
	}
	return out
}
