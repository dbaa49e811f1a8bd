package search

import "github.com/toolsearch/toolsearch/fallback"

// A colloquial verb that is no action verb of the lists (actionVerb) was
// read by keyword search and the calibrated score's coverage only
// (fallback.VerbSynonyms: "nuke", "zap", "axe" → delete, remove; "spin
// up" → create, start, launch, provision; "loop in" → add, invite,
// share), never by the unserved action: "Nuke the message I just posted
// by mistake in #general" met slack__send_message and "Spin up a read
// replica of the production database" the postgres tools, and no rule
// asked whether they do it. When a request opens with such a verb (alone,
// or with the particle after it: openingAction then reads the phrase),
// and every synonym of the verb is an action verb (phrasalAction), it is
// the request's action verb as any other: done by a top tool that does
// one of its synonyms (actsVerb), whose object is then checked
// (objectServed).

// colloquialAction reports whether w, a request's first ranking word that
// is no verb of the lists (actionVerb), is a colloquial action verb: a
// key of fallback.VerbSynonyms, alone or with the particle that opens its
// object (op, fallback.Opening: "spin up a ..."), whose synonyms are all
// action verbs (phrasalAction; see above).
func colloquialAction(w string, op fallback.Opening) bool {
	if op.Verb != w {
		return false
	}
	if phrasalAction(w) {
		return true // "nuke the message ..."
	}
	return len(op.Object) > 0 && fallback.Particle(op.Object[0]) && phrasalAction(w+" "+op.Object[0]) // "spin up a read replica ..."
}
