package fallback

// verbSynonyms are the words a tool's text may use for a request's verb,
// beside the verb itself: "write down the meeting notes" is served by
// notes__create_note, "mark the ticket as done" by a tool that changes an
// issue's status, "bin the old draft" by a tool that deletes. One
// direction only: a tool that can "add" does not create. A key of two
// words is a phrase ("look up", "call off", "by bike"); a key with "_" is
// a frame (frameKey), the "_" standing for the words between: "let _
// know", "tell _", "move _ time", "book _ time", and "_ time", the time
// such a frame names; "update _ rows" and the other SQL statements of a
// request on a database's data, and "_ rows", the table that holds its
// rows (statementVerbs), and "tell _ thread", a message said on a
// tracker's item (ThreadKey) (requestExpansions).
//
// The one table both readers share: package search's no-match rules ask
// whether a tool does a request's verb through it (VerbSynonyms), and
// keyword search matches a request's colloquial verb to its plain verbs
// through it (Options.Expand, expansion.go). Written from general
// knowledge of English, not from any catalog or query set; the sixth
// session's colloquial entries (after "// colloquial") were added after
// reading the example catalog's answerable sets up to the ninth
// (evaluation/testdata/nomatch/example-*), so only the tenth and later
// measure them unseen; "drop" (h38-flags, after pair 24), "write up" and
// "tack" (h38-rank, after pairs 19 and 24) came in the twelfth session,
// so only later sets measure them unseen (docs/benchmarks.md, "\"write
// up\" composes", "\"tack\" appends"); "rename" (h39-flags, thirteenth
// session, after probing fresh wording; docs/benchmarks.md, "Rule misfires
// on fresh wording") is unseen by pair 27 and earlier sets alike; the
// fourteenth session's (h40-verbs: everydaySenses and the colloquial verbs
// marked so) were written from general English before reading any
// failure, then "empty", "schedule", "attach" and "log" narrowed and five
// phrasal verbs of seeing dropped after measuring the example pairs up to
// the 27th, and "cut" and "reply" added after reading pair 29's and the
// example pairs' flags (marked so; docs/benchmarks.md, "Everyday senses
// of plain actions").
var verbSynonyms = withSenses(plainSenses, everydaySenses)

// plainSenses are the entries of verbSynonyms but everydaySenses.
var plainSenses = map[string][]string{
	"add":        {"create", "insert", "append"},
	"insert":     {"add"},
	"write":      {"create", "save"},
	"jot":        {"create", "write"},
	"compose":    {"create", "write", "draft"},
	"file":       {"create"},
	"post":       {"send", "publish"},
	"dm":         {"send", "message"},
	"ping":       {"send", "message"},
	"message":    {"send"},
	"mail":       {"send", "email", "post"},
	"mark":       {"status", "transition"},
	"close":      {"status", "transition"},
	"remove":     {"delete"},
	"erase":      {"delete"},
	"cancel":     {"delete"},
	"edit":       {"update", "replace", "modify"},
	"modify":     {"update", "edit", "replace"},
	"change":     {"update", "edit", "modify", "transition"}, // "change jira issue status to In Progress": a transition (eighth session)
	"run":        {"execute"},
	"execute":    {"run"},
	"book":       {"reserve"},
	"download":   {"fetch"},
	"set":        {"update", "change", "create", "configure"},
	"save":       {"write", "create", "store"},
	"share":      {"send", "post"}, // eleventh session (h37-flags): "... and share them in #marketing"
	"answer":     {"reply", "respond"},
	"setup":      {"create", "schedule", "configure", "add", "set"},
	"signup":     {"register", "enroll", "subscribe", "join", "sign up"}, // "sign me up for ...": the phrasal verb (package search's phrasalVerbs)
	"giveback":   {"return", "refund", "exchange"},                       // "return the shoes I ordered": given back (package search's givesBack)
	"replace":    {"edit", "update", "modify"},
	"rename":     {"update", "change"}, // a name or title changed: "rename event evt-5521 to 'Quarterly review'" (thirteenth session, h39-flags)
	"lower":      {"set", "adjust", "decrease", "reduce"},
	"raise":      {"set", "adjust", "increase"},
	"increase":   {"set", "adjust", "raise"},
	"revoke":     {"cancel", "delete", "remove"},
	"arrange":    {"schedule", "book", "create", "organize"},
	"stream":     {"play"},
	"broadcast":  {"post", "send", "publish"},
	"print":      {"read", "show", "display"},
	"respond":    {"reply", "answer"},
	"move":       {"update", "change"},
	"reschedule": {"update", "change"},
	"postpone":   {"update", "change"},
	// the seventh session's action verbs (package search's actionVerbs)
	"overwrite":    {"write", "replace", "update"},
	"prepend":      {"add", "insert"},
	"concatenate":  {"combine", "merge", "join"},
	"transcode":    {"convert"},
	"terminate":    {"stop", "kill", "delete"},
	"purge":        {"delete", "clear", "remove"},
	"prune":        {"delete", "remove"},
	"flush":        {"clear", "delete"},
	"shred":        {"delete"},
	"evict":        {"remove", "delete"},
	"decommission": {"delete", "remove", "stop"},
	"deprovision":  {"delete", "remove"},
	"replicate":    {"copy", "clone"},
	"autoscale":    {"scale"},
	"downgrade":    {"change", "update"},
	"demote":       {"change", "update"},
	"delegate":     {"assign"},
	"onboard":      {"add", "invite"},
	"offboard":     {"remove"},
	"unfriend":     {"remove", "unfollow"},
	"allowlist":    {"allow", "add"},
	"whitelist":    {"allow", "add"},
	"blocklist":    {"block"},
	"blacklist":    {"block"},
	"redact":       {"edit", "remove"},
	"reimburse":    {"refund", "pay"},
	"remit":        {"pay", "send"},
	"rsvp":         {"reply", "respond", "accept"},
	"summon":       {"call", "request"},
	// software commands (package search's commandVerbs): the words a tool
	// doing one names, of several words when its action is said with its
	// object (mkdir: "create directory"; package search reads each word
	// among the tool's actions, keyword search does not read them)
	"mkdir":      {"create directory", "create folder", "make directory", "make folder"},
	"chmod":      {"set permission", "change permission", "update permission"},
	"chown":      {"set owner", "change owner", "update owner"},
	"gzip":       {"compress", "zip"},
	"gunzip":     {"decompress", "extract", "unzip"},
	"untar":      {"decompress", "extract", "unzip"},
	"rsync":      {"sync", "copy", "transfer"},
	"scp":        {"copy", "transfer", "upload"},
	"symlink":    {"create link", "create symlink"},
	"screenshot": {"capture", "snapshot"},
	// colloquial
	"bin":        {"delete", "remove"},
	"trash":      {"delete", "remove"},
	"ditch":      {"delete", "remove"},
	"nuke":       {"delete", "remove"},
	"scrap":      {"delete", "remove"},
	"drop":       {"delete", "remove"}, // twelfth session (h38-flags): "Drop event dnt-0912 from my calendar" (pair 24)
	"shift":      {"update", "change", "reschedule"},
	"bump":       {"update", "change", "reschedule"},
	"google":     {"search", "web"},
	"shoot":      {"send", "message"},
	"tack":       {"append", "add"}, // "tack 'call the plumber' onto the end of note n-2231"
	"text":       {"send", "message"},
	"look up":    {"search", "find"},
	"jot down":   {"create", "write", "note"},
	"write down": {"create", "write", "note"},
	"note down":  {"create", "write", "note"},
	"write up":   {"draft", "compose", "create"}, // "write up an email to hr@…": composed, not a file written
	"call off":   {"cancel", "delete"},
	"push back":  {"update", "change", "reschedule", "postpone"},
	"put off":    {"update", "change", "reschedule", "postpone"},
	"move up":    {"update", "change", "reschedule"},
	"open a":     {"create"},                       // "open a ticket", "open an issue": a thing that does not exist yet, made
	"open an":    {"create"},                       // (the file of "open notes.md", "open my recipes note" exists: read)
	"how long":   {"time", "duration", "distance"}, // a measure asked (framedPhrases): "how long is the drive from Boston to New York"
	"how far":    {"distance"},
	"how big":    {"size"},
	"how large":  {"size"},
	"hop over":   {"switch", "checkout"},
	"switch to":  {"switch", "checkout"},
	"get rid":    {"delete", "remove"},
	"throw away": {"delete", "remove"}, // fifteenth session (h41-flags): "throw away the duplicate note" (pair 27), unseen by later pairs only
	"throw out":  {"delete", "remove"},
	"fire off":   {"send", "message"},
	// colloquial verbs that are no action verb of package search, from
	// general English (fourteenth session, h40-verbs, written before
	// reading any failure): keyword search and the calibrated score's
	// coverage read them
	"zap":           {"delete", "remove"},
	"axe":           {"delete", "remove"},
	"nix":           {"delete", "remove"},
	"toss":          {"delete", "remove"},
	"junk":          {"delete", "remove"},
	"chuck":         {"delete", "remove"},
	"tweak":         {"update", "change", "edit", "adjust"},
	"whip up":       {"create", "draft", "write"},
	"kick off":      {"start", "run", "trigger", "launch"},
	"fire up":       {"start", "launch", "run", "open"},
	"spin up":       {"create", "start", "launch", "provision"},
	"spin down":     {"stop", "terminate", "delete"},
	"tear down":     {"delete", "remove", "destroy"},
	"loop in":       {"add", "invite", "share"},
	"reach out":     {"contact", "message", "send"},
	"hit up":        {"message", "contact", "send"},
	"pass along":    {"forward", "send", "share"},
	"pass on":       {"forward", "send", "share"},
	"hand off":      {"assign", "transfer", "delegate"},
	"hand over":     {"assign", "transfer"},
	"pencil in":     {"schedule", "create", "add", "book"},
	"check off":     {"complete", "mark", "close"},
	"tick off":      {"complete", "mark"},
	"cross off":     {"complete", "mark", "remove"},
	"wrap up":       {"close", "complete", "finish"},
	"greenlight":    {"approve"},
	"let _ know":    {"send", "message", "notify", "tell"}, // "let the team know the build is green"
	"tell _":        {"send", "message", "notify"},         // "tell the #ops channel the deploy is done"
	"open _":        {"read", "show"},                      // "open notes.md", "open ~/notes/todo.md": a value that exists (requestExpansions)
	"print _":       {"read", "show", "display"},           // "print the contents of app.ini": text shown, not paper (requestExpansions, printsText)
	"move _ time":   {"reschedule", "update", "change"},    // "move my 2pm meeting to 4pm", "push the standup an hour later"
	"book _ time":   {"create", "schedule", "reserve"},
	"_ time":        {"event", "calendar"}, // the time of "move my 2pm meeting to 4pm": a slot of its own
	"insert _ rows": {"insert"},
	"update _ rows": {"update"},
	"delete _ rows": {"delete"},
	"alter _ rows":  {"alter"},
	"select _ rows": {"select", "query"},
	"_ rows":        {"sql"},
	ThreadKey:       {"comment"},             // "tell them on PR 912 that ...": said on a tracker's item (threadMessage)
	"show":          {"list", "get", "read"}, // a light verb: the words of read tools (keyword search only)
	"display":       {"list", "get", "read"},
	"view":          {"list", "get", "read"},
	"cycle to":      {"directions", "route"},
	"cycle from":    {"directions", "route"},
	"bike to":       {"directions", "route"},
	"bike from":     {"directions", "route"},
	"walk to":       {"directions", "route"},
	"walk from":     {"directions", "route"},
	"drive to":      {"directions", "route"},
	"drive from":    {"directions", "route"},
	"by bike":       {"directions", "route"},
	"by car":        {"directions", "route"},
	"on foot":       {"directions", "route"},
}

// everydaySenses are the everyday senses of the catalogs' plain actions
// (fourteenth session, h40-verbs), from general English, written before
// reading any failure (but "cut" and "reply", marked so), not from a
// catalog or a query set: the usual
// meaning of each verb in a request to software ("wipe the note" deletes
// it, "kill the job" stops it, "turn the address into coordinates"
// converts it), for the action verbs of package search (actionVerbs)
// that had no entry, and their phrasal verbs (an action verb and a
// particle, fallback.Particle; every synonym an action verb, package
// search's phrasalAction). They are entries of verbSynonyms, read by the
// no-match rules (VerbSynonyms) and keyword search as any other, but not
// by the calibrated score's coverage (CoverageSynonyms): most of these
// verbs are nouns as often ("release mode", "on call", "the fix", "the
// log"), and a noun the catalog does not know said as a verb it knows
// let near misses through. Measured (docs/benchmarks.md, "Everyday
// senses of plain actions"), default / keyword mode, read by coverage
// too: pooled example pairs with 22+24+27 answerable flagged 52 → 48
// (56 → 52), no-answer 803 → 792 (802 → 791); not read by it: 52 → 51
// (56 → 55), 803 (802) unchanged.
var everydaySenses = map[string][]string{
	"wipe":        {"delete", "remove", "erase", "clear"},
	"clear":       {"delete", "remove", "erase"},
	"discard":     {"delete", "remove"},
	"empty":       {"clear", "purge"},
	"kill":        {"stop", "terminate", "cancel", "end"},
	"fix":         {"update", "edit", "correct", "modify"},
	"correct":     {"update", "edit", "fix"},
	"amend":       {"update", "edit", "modify"},
	"patch":       {"update", "modify", "edit"},
	"adjust":      {"update", "change", "set", "modify"},
	"switch":      {"change", "update", "toggle"},
	"flip":        {"toggle", "switch", "change"},
	"toggle":      {"enable", "disable", "switch"},
	"turn":        {"convert", "switch", "toggle", "enable", "disable"}, // "turn X into Y", "turn the alarm off"
	"swap":        {"replace", "switch", "change", "exchange"},
	"reset":       {"change", "update", "clear"},
	"trigger":     {"run", "execute", "start"},
	"launch":      {"start", "run", "open"},
	"start":       {"run", "launch", "trigger", "begin"},
	"stop":        {"cancel", "terminate", "end", "halt", "kill"},
	"end":         {"stop", "cancel", "terminate", "close", "finish"},
	"pause":       {"suspend", "stop", "hold"},
	"suspend":     {"pause", "disable", "deactivate"},
	"resume":      {"continue", "restart", "start", "unpause"},
	"restart":     {"reboot", "reload"},
	"reboot":      {"restart"},
	"send":        {"post", "message", "deliver", "mail"},
	"email":       {"send", "message", "mail"},
	"notify":      {"send", "message", "alert"},
	"contact":     {"message", "email", "call", "send"},
	"chat":        {"message", "send"},
	"dispatch":    {"send"},
	"deliver":     {"send"},
	"submit":      {"send", "post", "file", "create"},
	"publish":     {"post", "release", "share"},
	"release":     {"publish", "deploy"},
	"deploy":      {"release", "publish", "ship"},
	"ship":        {"deploy", "release", "publish", "send"},
	"tweet":       {"post"},
	"repost":      {"share", "post"},
	"copy":        {"duplicate", "clone"},
	"duplicate":   {"copy", "clone"},
	"clone":       {"copy", "duplicate"},
	"backup":      {"copy", "save", "export"},
	"mirror":      {"copy", "sync", "replicate"},
	"fork":        {"copy", "clone"},
	"transfer":    {"move", "send", "pay"},
	"migrate":     {"move", "transfer", "copy"},
	"merge":       {"combine", "join"},
	"combine":     {"merge", "join"},
	"allocate":    {"assign"},
	"resolve":     {"close", "status", "transition", "complete"},
	"complete":    {"close", "finish", "status", "transition"},
	"dismiss":     {"close", "clear", "delete"},
	"reopen":      {"status", "transition", "open"},
	"export":      {"download", "save"},
	"import":      {"upload", "load", "add"},
	"upload":      {"attach", "add"},
	"attach":      {"upload"},
	"approve":     {"accept", "confirm"},
	"accept":      {"approve", "confirm"},
	"reject":      {"decline", "deny"},
	"decline":     {"reject", "deny"},
	"deny":        {"reject", "decline"},
	"pay":         {"transfer", "send"},
	"buy":         {"purchase", "order"},
	"purchase":    {"buy", "order"},
	"order":       {"buy", "purchase"},
	"reserve":     {"book"},
	"rent":        {"book", "reserve", "hire", "lease"},
	"hire":        {"book", "rent"},
	"hail":        {"book", "request", "order"},
	"schedule":    {"create"},
	"log":         {"record"},
	"record":      {"log", "add", "save", "capture"},
	"enter":       {"add", "input", "record"},
	"register":    {"enroll", "subscribe", "join", "sign"},
	"enroll":      {"register", "join", "subscribe"},
	"subscribe":   {"follow", "join", "register"},
	"follow":      {"subscribe", "watch"},
	"unsubscribe": {"unfollow", "cancel", "leave", "remove"},
	"unfollow":    {"unsubscribe", "remove"},
	"invite":      {"add", "share"},
	"tag":         {"label", "mark", "flag"},
	"label":       {"tag", "mark"},
	"flag":        {"mark", "tag", "label"},
	"star":        {"favorite", "bookmark", "like", "save"},
	"bookmark":    {"save", "star", "favorite"},
	"like":        {"favorite", "star", "upvote"},
	"mute":        {"silence", "snooze"},
	"snooze":      {"postpone", "delay", "mute"},
	"block":       {"ban"},
	"ban":         {"block", "remove"},
	"restore":     {"recover", "undelete", "revert", "undo"},
	"recover":     {"restore", "undelete"},
	"revert":      {"undo", "rollback", "restore"},
	"rollback":    {"revert", "undo", "restore"},
	"undo":        {"revert", "rollback"},
	"refresh":     {"reload", "sync", "update"},
	"reload":      {"refresh", "restart"},
	"sync":        {"refresh", "update"},
	"install":     {"add", "setup", "enable"},
	"uninstall":   {"remove", "delete"},
	"enable":      {"activate", "allow"},
	"disable":     {"deactivate"},
	"activate":    {"enable", "start"},
	"deactivate":  {"disable", "stop"},
	"convert":     {"transform", "change", "translate"},
	"translate":   {"convert"},
	"compress":    {"zip", "archive", "pack"},
	"zip":         {"compress", "archive", "pack"},
	"pack":        {"compress", "zip"},
	"unzip":       {"extract", "decompress", "unpack"},
	"extract":     {"unzip", "decompress"},
	"visit":       {"open", "navigate", "browse"},
	"navigate":    {"open", "go", "visit", "browse"},
	"select":      {"choose", "pick"},
	"pick":        {"choose", "select"},
	"push":        {"upload", "publish", "deploy", "send", "move"},
	"pull":        {"fetch", "download"},
	"call":        {"phone", "dial", "invoke", "request"},
	// added after reading pair 29 and the example pairs' flags (h40-verbs),
	// each a sense of the general list written before (senses.md): "cut" a
	// release or a branch makes it ("cut a new branch release/2.0 off
	// main"; "cut the clip to 30 seconds" trims), a reply on a tracker's
	// item is a comment ("Reply on ticket OPS-4410 that ...")
	"cut":   {"create", "trim"},
	"reply": {"respond", "answer", "comment"},
	// their phrasal verbs (an action verb and a particle, fallback.Particle;
	// every synonym an action verb, package search's phrasalAction):
	"turn off":   {"disable", "deactivate", "stop"},
	"switch off": {"disable", "deactivate", "stop"},
	"turn up":    {"increase", "raise", "adjust", "set"},
	"shut down":  {"stop", "shutdown", "terminate", "close"},
	"shut off":   {"stop", "disable"},
	"back up":    {"backup", "copy", "save", "export"},
	"clean up":   {"delete", "remove", "prune", "purge", "clear"},
	"clear out":  {"delete", "remove", "empty", "clear"},
	"roll back":  {"revert", "rollback", "undo", "restore"},
	"roll out":   {"deploy", "release", "publish"},
	"follow up":  {"send", "message", "reply", "email"},
	"fill in":    {"complete", "submit", "update"},
	"fill out":   {"complete", "submit"},
	"sign off":   {"approve"},
	"pull down":  {"download", "fetch"},
}

// expandVerbs are the verbs of verbSynonyms that keyword search expands
// when one opens a request (Options.Expand, expansion.go): words that
// tools' text seldom uses for its own action ("bin", "post", "file",
// "answer", "jot"), so that the tools doing it have only the plain verb.
// A plain verb that tools' text uses itself ("add", "set", "change",
// "move", "cancel", "arrange") is left to match itself: expanded too, they
// lifted the synonym's tools over the ones that have the verb ("Move
// report_final.docx into the archive folder" and the update tools, "Help
// me arrange a three-day trip" and the scheduling tools; livemcpbench
// nDCG@10 −0.002, its held-out set's −0.015) and let near misses through
// ("Change the password on my home Wi-Fi router" met an updater; bfcl's
// held-out no-answer set flagged 70 % → 60 % in keyword mode). A light
// verb is here when tools' text uses it for other things: "show" (the
// git tools "Show the commit history") reads as list, get, read; "find"
// and a question read as search or list cost the dev sets
// (docs/benchmarks.md, "show reads as list, get, read").
var expandVerbs = wordSet("answer bin broadcast bump display ditch dm file google jot mail nuke ping post " +
	"respond save scrap shift shoot show tack text trash view")

// VerbSynonyms returns the words a tool's text may use for the request
// verb base (a verb's base form, or a phrasal verb of two words such as
// "look up"): "remove" → delete, "bin" → delete, remove. The slice is
// shared: callers must not modify it. Safe for concurrent use.
func VerbSynonyms(base string) []string { return verbSynonyms[base] }

// EachVerbSynonyms calls f with every verb of the table and its synonyms,
// in no particular order (for tests of the table).
func EachVerbSynonyms(f func(verb string, synonyms []string)) {
	for v, s := range verbSynonyms {
		f(v, s)
	}
}

// withSenses returns the one table of plain and everyday senses (a key of
// both keeps plain's: TestEverydaySensesAreNew).
func withSenses(plain, everyday map[string][]string) map[string][]string {
	m := make(map[string][]string, len(plain)+len(everyday))
	for k, v := range everyday {
		m[k] = v
	}
	for k, v := range plain {
		m[k] = v
	}
	return m
}

// CoverageSynonyms returns the words of VerbSynonyms that the calibrated
// score's coverage reads for a request's word the catalog does not know
// (package search's coverageVerbs): none for an everyday sense of an
// action verb (everydaySenses), which is a noun as often. The slice is
// shared: callers must not modify it. Safe for concurrent use.
func CoverageSynonyms(w string) []string {
	if _, ok := everydaySenses[w]; ok {
		return nil
	}
	return verbSynonyms[w]
}
