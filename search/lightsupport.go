package search

// Light verbs whose sense is their object's: in general English a verb
// such as "drop" or "post" says little with a new thing that is itself an
// action's noun (a support-verb construction): "drop a comment on WEB-77"
// comments, "post a reply to the thread" replies, "drop a review" reviews.
// Their own sense is for a thing that exists: "drop the comment" deletes
// it, "post the release notes" publishes them. leave, make, give, put and
// take are read so already (supportVerbs, unservedCausative); offerVerbs
// are the action verbs read so only with an indefinite object ("a", "an":
// indefinite), the noun then the request's action and the words after it
// its object, as for "leave a comment on OPS-12".
//
// Written from general English, not from any request set: the verbs of
// casually putting a short text somewhere ("drop", "post"). "send" keeps
// its own sense ("send an email" sends; a tool that sends serves it), as
// do verbs of making ("write a comment": write → create).
var offerVerbs = wordSet("drop post")

// lightSupport reports whether w, the action verb that opens the request
// raw, is a support verb there: one of supportVerbs whose object ends with
// an action's noun (actionNoun: "leave a comment on OPS-12"), or one of
// offerVerbs whose object is a new thing that does ("drop a comment on
// WEB-77", not "drop the comment").
func lightSupport(raw, w string) bool {
	switch {
	case supportVerbs[w]:
		return actionNoun(raw, w)
	case offerVerbs[w]:
		obj, _ := leadObject(raw, w)
		return len(obj) > 0 && indefinite[obj[0]] && actionNoun(raw, w)
	}
	return false
}

// supports reports whether lead is read as a support verb by
// unservedCausative: one of supportVerbs, or of offerVerbs (lightSupport
// chose the reading before).
func supports(lead string) bool { return supportVerbs[lead] || offerVerbs[lead] }
