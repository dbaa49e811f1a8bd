package search

// "make" is a support verb (supportVerbs): with an action's noun as its
// object it does that action ("make a phone call", "make a copy of the
// report", unservedCausative), and with anything else it was read no
// further: "Make a new private Slack channel called proj-hermes" and
// "Make a symbolic link ~/bin/deploy pointing to ~/code/ops/deploy.sh"
// were served by whatever matched their words. With a new thing as its
// object (an indefinite noun phrase: indefinite, as a verb of beginning
// reads it, beginVerbs) and no action's noun, "make" makes the thing: the
// request's action is makes (create), checked as the unserved action
// checks any verb's (a top tool that creates, or one named for making,
// "Payment_1_MakePayment", with a word of the object).
// Only a short request reads so (unservedMaxWords, as a support verb is
// read): "Make a transaction for me from my balance with Rachel with $50,
// and I prefer to keep the transaction private" (bfcl) makes a payment
// that its top tools, ranked on its other words, do not name. A definite
// object or a pronoun keeps "make" a support verb, whose
// complement says what the thing becomes ("make the volume 20", "make
// deploy.sh executable", "make it public").

// makeVerbs are the support verbs that make a new thing their object
// names (see above).
var makeVerbs = wordSet("make")

// makesThing reports whether w, a request's first ranking word after a
// leading server's name (server, leadingServer), is a verb of makeVerbs
// whose object (fallback.Opening.Object) is a new thing that names no
// action (actionNoun), so that the request asks to make it (see above).
func makesThing(r *reading, w, server string) bool {
	if !makeVerbs[w] {
		return false
	}
	op := r.openingAfter(server)
	return op.Verb == w && len(op.Object) > 1 && indefinite[op.Object[0]] && !actionNoun(r.req.Raw, w)
}
