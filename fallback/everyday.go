package fallback

import "strings"

// everydayWord is an entry of everydayWords: the plainer names a word
// reads as, and whether the word has another common sense (otherSense),
// so that it reads as them only in a request about the weather or a place
// (weatherContext), or is a thing worn against the weather (worn), read so
// only where the request asks about wearing it (wornAt), or reads as them
// in ranking alone (ranked: trackerWords).
type everydayWord struct {
	forms []string
	sense sense
}

// sense is the second field of an everydayWords entry.
type sense uint8

const (
	plain      sense = iota // the word says the condition whatever else the request says
	otherSense              // "hot reload", "cold storage", "compiler warnings", "my laptop keeps freezing"
	worn                    // a coat, gloves: bought as often as worn; about the weather only when worn (wornAt)
	ranked                  // a ticket, a bug: an issue in ranking, not known in coverage through it (trackerWords)
)

// Everyday words (Options.Expand, read as short forms are: shortFormOf):
// a request's everyday word for a condition that tools report under a
// plainer name also matches that name, in the word's slot at
// shortFormWeight, and counts as known in the coverage when the catalog
// knows the name. "will it snow in Denver on Saturday" asks for a
// weather forecast, "how hot is it in Madrid" for a temperature, "how bad
// is the smog in Delhi" for the air quality; no word of any of them was a
// word of the example catalog, whose weather tools say "weather",
// "forecast", "temperature" and "air quality" (coverage 0: flagged with
// the right tool first, or a wrong one).
//
// Written from general knowledge of English (the conditions a weather
// report gives, in the words people ask about them), in the ninth session
// after reading the example catalog's development pairs (tuning, held-out
// 1–14), so only the later pairs measure it unseen. Words whose other
// common sense is the usual one are left out: "heat" (heat capacity),
// "warm" (warm up); "storm" is a word tools' text has itself ("pour",
// "coat" and "jacket", left out then, are read since the fourteenth
// session: everydayPlainWords). A weather "warning" or "advisory" is
// what tools call an alert: example answerable flagged, default tuning
// 5.9 → 5.0 %, keyword tuning 6.9 → 5.9, held-out 9.4 → 6.2, held-out-3
// 15.6 → 12.5 %; nDCG@10 default held-out-4 0.803 → 0.819, keyword
// held-out 0.831 → 0.862, -2 0.796 → 0.829, -4 0.842 → 0.859, -6 0.791 →
// 0.803; no no-answer request and no dev set moves. "windy" reads as wind, what a
// report of the current weather gives: read as a forecast, it put
// weather__get_forecast first for "how windy is it right now in Chicago"
// (example held-out-4 nDCG@10 0.786 → 0.769).
//
// A word whose other common sense a request to software often means
// (otherSense: "hot reload", "cold storage", "compiler warnings", "my
// laptop keeps freezing", "security advisories", "a hazy screen") reads
// as its weather name only in a request about the weather
// (weatherContext: a plain everyday word of the weather, a weather word,
// a place; or weatherIt). Without that, the h35-review near misses ("show me the
// compiler warnings from the last build", "list the open warnings in the
// sentry project", "my laptop keeps freezing, what can I do", "is the
// deploy hot or cold") were confident weather matches in both modes
// (search's TestEverydayOtherSense, with six more written before
// measuring); with it, every example pair (tuning, held-out 1–6, 8–14)
// and every dev set and mode keeps the figures of the table read
// everywhere, nDCG@10 and both flags alike (a place after "in", "for" not
// counted, or a weather word covers each pair's weather request but one,
// "how hot is it in madrid at the moment": weatherIt keeps it, default
// held-out-10 answerable flagged 12 → 14 % and keyword nDCG@10 0.770 →
// 0.750 without it). Dropping the five words instead cost answerable
// flagged tuning 5.0 → 5.9 %, held-out-10 12 → 14 %, keyword held-out
// 6.2 → 9.4 %, nDCG@10 keyword held-out 0.862 → 0.831 (h35-review).
var everydayWords = map[string]everydayWord{
	"snow":     {[]string{"weather forecast"}, plain},
	"snowing":  {[]string{"weather forecast"}, plain},
	"snowy":    {[]string{"weather forecast"}, plain},
	"rain":     {[]string{"weather forecast"}, plain},
	"raining":  {[]string{"weather forecast"}, plain},
	"rainy":    {[]string{"weather forecast"}, plain},
	"drizzle":  {[]string{"weather forecast"}, otherSense},
	"sunny":    {[]string{"weather forecast"}, plain},
	"cloudy":   {[]string{"weather forecast"}, plain},
	"foggy":    {[]string{"weather forecast"}, plain},
	"stormy":   {[]string{"weather forecast"}, plain},
	"umbrella": {[]string{"weather forecast"}, plain},
	"windy":    {[]string{"wind"}, plain},
	"hot":      {[]string{"temperature"}, otherSense},
	"cold":     {[]string{"temperature"}, otherSense},
	"chilly":   {[]string{"temperature"}, otherSense},
	"freezing": {[]string{"temperature"}, otherSense},
	"humid":    {[]string{"humidity"}, plain},
	"smog":     {[]string{"air quality"}, plain},
	"smoggy":   {[]string{"air quality"}, plain},
	"haze":     {[]string{"air quality"}, otherSense},
	"hazy":     {[]string{"air quality"}, otherSense},
	"warning":  {[]string{"alert"}, otherSense},
	"advisory": {[]string{"alert"}, otherSense},
	// everyday words for the catalog's plain words (everydayPlainWords, below)
	"pour":         {[]string{"weather forecast"}, plain},
	"pouring":      {[]string{"weather forecast"}, plain},
	"downpour":     {[]string{"weather forecast"}, plain},
	"showers":      {[]string{"weather forecast"}, otherSense},
	"soaked":       {[]string{"weather forecast"}, plain},
	"drenched":     {[]string{"weather forecast"}, plain},
	"hail":         {[]string{"weather forecast"}, otherSense}, // "hail a cab": a booking verb too (verbSynonyms)
	"sleet":        {[]string{"weather forecast"}, plain},
	"thunder":      {[]string{"weather forecast"}, plain},
	"thunderstorm": {[]string{"weather forecast"}, plain},
	"overcast":     {[]string{"weather forecast"}, plain},
	"sunshine":     {[]string{"weather forecast"}, plain},
	"gale":         {[]string{"wind"}, plain},
	"gusty":        {[]string{"wind"}, plain},
	"gusts":        {[]string{"wind"}, plain},
	"breezy":       {[]string{"wind"}, plain},
	"blustery":     {[]string{"wind"}, plain},
	"scorching":    {[]string{"temperature"}, plain},
	"sweltering":   {[]string{"temperature"}, plain},
	"frosty":       {[]string{"temperature"}, plain},
	"mild":         {[]string{"temperature"}, otherSense},
	"muggy":        {[]string{"humidity"}, plain},
	"coat":         {[]string{"weather"}, worn},
	"jacket":       {[]string{"weather"}, worn},
	"gloves":       {[]string{"weather"}, worn},
	"scarf":        {[]string{"weather"}, worn},
	"sunscreen":    {[]string{"weather"}, worn},
	"pollution":    {[]string{"air quality"}, plain},
	"drive":        {[]string{"car"}, otherSense},
	"driving":      {[]string{"car"}, otherSense},
	"walk":         {[]string{"foot"}, otherSense},
	"walking":      {[]string{"foot"}, otherSense},
	"cycle":        {[]string{"bicycle"}, otherSense},
	"bike":         {[]string{"bicycle"}, otherSense},
	"cycling":      {[]string{"bicycle"}, otherSense},
	"commute":      {[]string{"travel"}, plain},
	"mile":         {[]string{"distance"}, plain},
	"km":           {[]string{"distance"}, plain},
	"kilometre":    {[]string{"distance"}, plain},
	"kilometer":    {[]string{"distance"}, plain},
	"spot":         {[]string{"places"}, otherSense},
	"diary":        {[]string{"calendar"}, plain},
	"agenda":       {[]string{"calendar"}, otherSense},
	"mail":         {[]string{"email"}, plain},
	"memo":         {[]string{"note"}, plain},
	// what someone mentioned (mentionWords, below)
	"mention":    {[]string{"message"}, plain},
	"mentioning": {[]string{"message"}, plain},
	// what a tracker's tools call an issue (trackerWords, below)
	"ticket": {[]string{"issue"}, ranked},
	"bug":    {[]string{"issue"}, ranked},
}

// everydayPlainWords: the everyday words people use for what tools name
// plainly, the everydayWords entries after the weather's first ones: rain
// said otherwise ("pour", "soaked", "hail"; hail otherSense: "hail a
// cab" books a ride) is a forecast's, wind said
// otherwise ("gale", "gusty") the wind's; what one wears against the
// weather ("coat", "jacket", "gloves") asks for the weather (worn: clothes
// are as often bought, so only about the weather or a place and asked
// about as worn, wornAt: "Do I need a coat in Wellington right now?", not
// "how much is a winter coat at Zara in Madrid"); a drive, a walk, a bike ride say
// how one travels ("car", "foot", "bicycle", the words directions tools use
// for their modes; otherSense: a hard drive, "walk me through", so only
// with a place: "how long is the drive from Reno to Boise"), a mile or a
// kilometre a distance; a spot is a place ("ramen spots near Shibuya",
// otherSense: "spot the bug"); a diary and an agenda are a calendar (agenda
// otherSense: a meeting's agenda); mail is email, a memo a note. Written
// from general knowledge of English (the fourteenth session, h40-calib)
// after reading the example pairs' requests flagged by the calibration line
// (tuning, held-out 1–27), so only pair 29 and later measure them unseen;
// "cycle", "bike" and the singular keys ("mile", "kilometre": a plural is
// read through its singular) were in that list but added after pair 29
// showed them missing. Measured (docs/benchmarks.md, "Everyday words for
// the catalog's plain words"), main 221855a → after, default / keyword:
// example pairs pooled with 22, 24, 27 and 29 (917 / 910) answerable
// flagged 63 → 53 / 67 → 59, no-answer 842 → 841 / 841 → 841 ("How much are
// the tolls driving Paris to Lyon on the A6?"); first right (fr.sh, of 717)
// 557.3 → 562.3 / 567.3 → 572.3, mean nDCG@10 .8961 → .9013 / .9052 →
// .9104; pair 29 answerable 22 → 18 / 22 → 20 %; the dev sets' nDCG@10 the
// same or higher (bfcl .7144 → .7146, keyword .6999 → .7000), livemcpbench
// no-answer 88 → 90 % in both modes. Dropped after measuring: "far" (also
// "so far": bfcl "the information I'm getting … so far"; "how far" is a
// framed phrase already), "online" and "website" as web (bfcl "movies to
// watch online" put a web search first), "ticket" as issue (bfcl tools say
// "ticket" themselves; "buy two tickets" near misses), "inbox" as mailbox
// (stabletoolbench keyword −0.0001; and "Set up a rule so mail … skips the
// inbox" let through), and "directions" as what a drive says (it matches
// the weather's "wind direction": "the tolls driving Paris to Lyon" found
// the current weather).

// trackerWords: a tracker's ticket or bug is what its tools call an issue
// ("Which SUP tickets have sat in 'Waiting for customer' for more than 30
// days?", "List all Highest priority bugs in project PAY that are not
// Done"): the everydayWords entries "ticket" and "bug" (and their plurals)
// read as "issue", whatever else the request says, in their slot beside
// their own word, so a tool that says "ticket" or "bug" itself ("Buy
// tickets for a concert", jira's "Create a Jira issue (bug, task, story or
// epic)") keeps its match and one that says "issue" gets as much. General
// English of software trackers, written in the fourteenth session
// (h40-rank) after reading pairs 22–29's misses; measured in
// docs/benchmarks.md ("A ticket or a bug is an issue"). They rank only
// (ranked): a ticket is as often one bought ("get directions to the
// airport and buy a train ticket"), so the word does not count as known in
// the coverage through "issue", and the no-match rules read it as the
// catalog's own words say.

// mentionWords: what someone mentions is in their messages ("Did anyone
// in #payments mention 'chargeback spike' in the last two weeks?", "Find
// Slack messages from @priya mentioning 'invoice'"), or in notes ("Which
// of my notes mention lentils?"): the everydayWords entries after the
// weather's read "mention" and "mentioning" as "message" (plain: whatever
// else the request says). Measured (thirteenth session, h39-rank;
// docs/benchmarks.md, "What someone mentioned is in their messages"),
// main aa79f97 → after, default / keyword: example pairs without 22 and
// 24 mean nDCG@10 .8960 → .8961 / .9060 → .9060 (held-out 19's notes
// request); pair 27 nDCG@10 .7456 → .7493 / .7506 → .7543; answerable
// flagged, pooled with 22, 24 and 27, 60 → 60 / 64 → 63 of 867 (held-out
// 19 keyword 8 → 6 %); no-answer flagged and the dev sets unchanged.
// "said" and "say" read so too were dropped: "what was said in #general
// yesterday" put slack__search_messages (whose name says "messages")
// over slack__get_channel_history, "What does ~/thesis/chapter-3.odt
// say?" a chat tool over the document's (search's TestNamedThingAtATime,
// TestPathKindWords); "mentioned" and "talked" refer, after a noun, to
// what was said earlier ("the order we talked about earlier": bfcl
// −.0003; "the blockers people mentioned in our #dev channel" let a
// stabletoolbench no-answer request through, 84 → 82 %).

// weatherWords place a request in the weather for an everyday word of
// another sense (everydayWords' otherSense entries), besides a plain
// everyday word and a place: the words weather tools' text says
// ("weather", "forecast", "temperature", "wind", "storm"), the weather
// that an alert or a reading names ("heat advisory", "flood warnings",
// "tornado warnings", "frost"), being out in it ("outside", "outdoors")
// and the days a forecast covers ("today", "tonight", "tomorrow").
var weatherWords = wordSet("weather forecast temperature wind storm heat flood tornado hurricane frost " +
	"outside outdoors today tonight tomorrow")

// weatherContext reports whether a request (its raw text and its words,
// as analysis.Words gives them) is about the weather or a place, so that
// an everyday word of another sense (everydayWords' otherSense) reads as
// its plain name (the weather's, or a route's: "the drive from Reno to
// Boise"): it also has a plain everyday word of the weather
// (weatherNames: "will it rain, is it cold"), a weather word
// (weatherWords: "cold front in the forecast", "is it freezing outside")
// or a place's name after "in", "from", "near"
// (locativeNames: "how hot is it in Phoenix"). "show me the compiler
// warnings from the last build", "my laptop keeps freezing" and "is the
// deploy hot or cold" have none, and no weather tool serves them.
// weatherIt is the other way a request says it, word by word.
func weatherContext(raw string, words []planWord) bool {
	for _, w := range words {
		if weatherWords[w.word] {
			return true
		}
		if e, ok := everydayEntry(w.word); ok && e.sense == plain && weatherNames[e.forms[0]] {
			return true
		}
	}
	return len(locativeNames(raw)) > 0
}

// weatherNames are the plain names of everydayWords that are the
// weather's: a plain everyday word with one of them places a request in
// the weather (weatherContext), one with another name ("mail" as email,
// "diary" as calendar, "mile" as distance, "mention" as message, "ticket"
// as issue) does not: "check the mail for a warning from the security
// team" put weather__get_alerts first at 0.57, "any tickets about the hot
// reload warning" at 0.53, confident in both modes.
var weatherNames = map[string]bool{"weather forecast": true, "weather": true, "wind": true,
	"temperature": true, "humidity": true, "air quality": true, "alert": true}

// wornAt reports whether the word at of a request's words (as
// analysis.Words gives them), a thing worn against the weather (everydayWords'
// worn entries), is asked about as worn: a verb of wearing or needing
// (wearVerbs) among the wornBefore words before it. "Do I need a coat in
// Wellington right now?", "should I wear gloves in Oslo tonight" ask the
// weather; "how much is a winter coat at Zara in Madrid" and "is the
// jacket I ordered from Uniqlo shipped yet" do not.
func wornAt(words []planWord, at int) bool {
	for j := max(0, at-wornBefore); j < at && j < len(words); j++ {
		if wearVerbs[words[j].word] {
			return true
		}
	}
	return false
}

// wornBefore is how many words before a thing worn wornAt reads for its
// verb: "need a warm coat" (three). Measured (h40-review, main 485cef1,
// default and keyword; threadWindow moved with it): 1 flags one more
// answerable request of example held-out-13 (0 → 2 %), pooled 51 → 52
// (58 → 59) of 917; 6 moves no example pair, dev set or pooled flag
// (ex.sh, modes.sh, pooled.sh).
const wornBefore = 3

// wearVerbs ask whether to wear a thing (wornAt).
var wearVerbs = wordSet("need needs wear wearing bring pack take")

// weatherIt reports whether the word at of a request's words (as
// analysis.Words gives them) is said of the weather's "it": an "it" next
// to a form of "be" ("is it", "it's", "will it be") among the
// weatherItBefore words before it or the two after it: "how hot is it in
// madrid at the moment" (a place the request does not capitalize), "is
// it freezing", "will it be chilly"; not "why does it keep freezing".
func weatherIt(words []planWord, at int) bool {
	for j := max(0, at-weatherItBefore); j < min(len(words), at+3); j++ {
		if j == at || words[j].word != "it" {
			continue
		}
		if j > 0 && beForms[words[j-1].word] || j+1 < len(words) && beForms[words[j+1].word] {
			return true
		}
	}
	return false
}

// weatherItBefore is how many words before an everyday word of another
// sense weatherIt looks for the weather's "it": "is it going to be cold"
// (four).
const weatherItBefore = 4

// beForms are the forms of "be" (and "will") next to which "it" is the
// weather's (weatherIt): "is it", "it's", "will it be".
var beForms = wordSet("is s was be will")

// everydayEntry returns the everydayWords entry of a request's word w (as
// analysis.Words gives it), itself or its singular ("warnings").
func everydayEntry(w string) (everydayWord, bool) {
	if e, ok := everydayWords[w]; ok {
		return e, true
	}
	if s, ok := strings.CutSuffix(w, "s"); ok {
		e, ok := everydayWords[s]
		return e, ok
	}
	return everydayWord{}, false
}
