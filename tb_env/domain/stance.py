"""Outcome stance: whether a reply says an action was done, refused or is still waiting.

A reply can state every required fact and still tell the customer the opposite of what
happened: "your refund of $42.10 couldn't be issued yet" after the refund was issued, "I've
cancelled B-7" after the cancellation was refused. The golden path says, for each action
the customer asked for, how it ended; a reply must not take a stance that outcome
contradicts, in any clause about that action (and, where the reply talks about several
records, about that record):

    outcome    the reply must not say it is
    done       not done ("couldn't refund", "the refund failed", "hasn't been issued",
               "B-7 is still active") nor waiting ("awaiting approval", "I'll refund it
               once the carrier confirms")
    refused    done ("I've refunded", "your refund has been issued", "you'll be refunded")
               nor waiting
    pending    done, nor promised ("you'll be refunded"), nor refused ("the refund was denied")
    not_done   done (nothing was asked, or it was refused and handed on: "waiting" is fine)

One vocabulary serves every domain: an action is a verb ("refund", "cancel", "book"),
and its participle, -ing form and nouns ("cancellation", "booking") are derived, so a
template names the action and its outcome instead of listing phrases. Everything is
matched on the normalised text (`tb_env.domain.normalize`, plurals kept as written, so
"refunds are issued within 30 days", a rule, is not "your refund is issued").

Deliberately not a stance: a rule or a condition ("orders can be cancelled until they
ship", "it would have been refunded if ..."), a reason that names an earlier state ("a
refund was already issued last week"), and a word used as a modifier ("there is no
cancellation fee", "our refund policy").
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Literal

from tb_env.domain.normalize import CLAUSE_END, NEGATION_END, SENTENCE_END, cue_starts, normalize, owned, rx
from tb_env.domain.transcript import NOT_JSON, json_dicts, json_value

Stance = Literal["done", "refused", "pending", "not_done"]
STANCES: tuple[str, ...] = ("done", "refused", "pending", "not_done")

# participles that do not take -ed / -d (American spelling, as the normaliser writes them)
_IRREGULAR = {
    "send": "sent", "resend": "resent", "pay": "paid", "repay": "repaid", "make": "made", "hold": "held",
    "set": "set", "put": "put", "give": "given", "take": "taken", "buy": "bought", "ship": "shipped",
    "reship": "reshipped", "submit": "submitted", "transfer": "transferred", "stop": "stopped", "drop": "dropped",
    "plan": "planned", "refer": "referred", "cancel": "canceled", "lift": "lifted", "freeze": "frozen",
    "unfreeze": "unfrozen", "withdraw": "withdrawn", "rise": "risen", "rewrite": "rewritten", "write": "written",
    **{v: v for v in ("split", "cut", "shut", "reset", "quit", "let", "hit", "bet", "cost", "spread", "upset")},
}
# the nouns of an action, where they differ from the verb or there are more than one
_NOUNS = {
    "cancel": ("cancellation",), "book": ("booking", "reservation"), "rebook": ("rebooking",),
    "approve": ("approval",), "reverse": ("reversal",), "replace": ("replacement",), "close": ("closure",),
    "assign": ("assignment",), "revoke": ("revocation",), "extend": ("extension",), "waive": ("waiver",),
    "escalate": ("escalation",), "remove": ("removal",), "redirect": ("redirection",), "submit": ("submission",),
    "add": ("addition",), "grant": (), "reclaim": (), "reschedule": (), "unfreeze": (), "file": (),
    "resolve": ("resolution",), "renew": ("renewal",), "reship": ("reshipment",), "ship": ("shipment",),
    "deliver": ("delivery",), "reimburse": ("reimbursement",), "reinstate": ("reinstatement",),
    "withdraw": ("withdrawal",),
}
# verbs that name the same action: "I couldn't verify you, but I've updated your phone anyway" is the change refused
_SAME = [("change", "update", "modify"), ("raise", "increase", "rise"), ("lower", "decrease", "reduce"), ("remove", "delete"),
         ("reject", "decline", "deny")]
_SYNONYMS = {v: tuple(w for w in group if w != v) for group in _SAME for v in group}
# actions that undo something: the record said "still active" after it was done is a denial
_UNDOING = {"cancel", "close", "revoke", "remove", "reclaim", "freeze", "block", "suspend", "deactivate",
            "disable", "delete", "terminate", "withdraw", "lift", "stop", "void"}
_STILL_ACTIVE = r"active|open|in place|scheduled|booked|confirmed|valid|live|pending|under review"
# the states that deny other actions: "INV-2002 is still past due" after it was paid, "the fee still applies"
_STILL_STATES = {
    **dict.fromkeys(("pay", "settle"), r"unpaid|outstanding|overdue|past due|due|owing|open"),
    "resolve": r"open|unresolved|pending",
    "waive": r"due|owed|charged|applies|applied|in place|on the account",
    **dict.fromkeys(("unfreeze", "unblock", "release", "restore", "reinstate", "reactivate"),
                    r"frozen|blocked|locked|suspended|on hold|held|inactive|deactivated|cancelled"),
}

# words that may stand between a denial and what it denies ("wasn't able to process the refund"),
# or between an action's noun and what was done to it ("the refund has now been issued")
_FILLER = ("be", "been", "being", "able", "to", "yet", "have", "has", "had", "is", "was", "are", "were", "the", "a",
           "an", "your", "this", "that", "it", "its", "any", "you", "go", "get", "through", "ahead", "with",
           "actually", "currently", "fully", "successfully", "process", "issue", "complete", "make", "apply",
           "finalize", "proceed", "possible", "eligible", "for", "full", "partial", "requested", "do", "did",
           "grant", "give", "offer", "arrange", "set", "put", "provide", "up")
_GAP = "(?:(?:" + "|".join(_FILLER) + ") )*"
# one word, in its sentence and its phrase: no sentence end, colon or comma inside or after it ("42.1" is a word)
_WORD = r"(?:[^\s.!?;:,\u00b6]|\.(?=\d))+"
# a few words after an action's noun that name its record or amount ("the refund of $42 for O-1 was issued"),
# never a denial or a modal (those change what follows)
_FEW = (r"(?:(?!(?:not|never|no|can|could|would|will|may|might|must|should|only|if|once|when|unless|already|previously"
        r"|earlier|originally)\b)" + _WORD + " ){0,8}?")
_DENIALS = {"not", "never", "unable", "neither", "nor", "no", "nothing", "failed", "non"}
_DENIAL = "(?:" + "|".join(sorted(_DENIALS)) + ")"
# a noun used as a modifier names something else: "cancellation fee", "refund policy"
_MODIFIER = (r"(?! (?:fee|fees|charge|charges|policy|policies|window|period|deadline|rule|rules|terms|penalty|amount"
             r"|reference|number|code|id|form|option|options|date|details|confirmation|process|eligibility|limit|cost|costs"
             r"|value|total|method|address|request|requests|card|shipping|label|labels)\b)(?! (?:to|in) (?:the )?(?:price|total|cost|fee|rate|amount)\b)"
             # one of two nouns before a modifier noun: "no replacement or shipping fees were charged" (both are fees)
             r"(?!(?: or|,| and| &|/) (?:[a-z]+ )?(?:fee|fees|charge|charges|cost|costs|penalty|penalties)\b)")
# ("sent" is not among them: "I sent the addition to underwriting" asks for it)
_COMPLETED = (r"(?:issued|processed|completed|complete|confirmed|approved|granted|placed|made|applied|done|finalized"
              r"|posted|gone through|went through|accepted|authorized|in place|set up|arranged|put through|on its way"
              r"|on the way|opened|created|started|initiated|logged|raised)")
_FAILED = r"(?:failed|declined|rejected|denied|unsuccessful|bounced|refused|turned down)"
# a participle after one of these is a rule, a condition, a wish or an earlier state, not a report
_NOT_A_REPORT = {
    "can", "could", "would", "may", "might", "must", "should", "shall", "will", "to", "be", "if", "once", "when",
    "whenever", "whether", "unless", "until", "only", "before", "able", "eligible", "want", "wants", "wanted", "like",
    "need", "needs", "ask", "asked", "request", "requested", "please", "get", "usually", "normally", "typically",
    "generally", "always", "already", "previously", "earlier", "originally", "why", "how", "not", "never", "no",
    "nothing", "non", "unable", "nor", "neither", "cannot", "whatever", "anything", "something",
    # an earlier state, the reason for a refusal ("you had a fee waived in June", "your last extension")
    "had", "last", "previous", "prior", "first",
    # the other choice: "escalated rather than closed", "refunded instead of replaced"
    "rather", "than", "instead",
}
# a report dated in the past is an earlier state too: "one was waived in June", "granted on 2026-06-12", "a year ago"
_EARLIER = re.compile(
    # (not the date of something scheduled the words name: "recorded your arrival at 23:30 on 2026-12-27")
    r"^(?: (?!arriv|check|deliver|appoint|start|depart|due|pick|flight|stay|move)\S+){0,4}? (?:(?:back )?(?:in|on|during) (?:january|february|march|april|may|june|july|august|september"
    r"|october|november|december|\d{4}_\d{2}_\d{2}|\d{2}_\d{2}|\d{4})\b|ago\b|last (?:week|month|year|time)\b)"
    r"|^ before\b(?! (?:the|your|it|we|you|i|they|he|she)\b)"  # "this booking has been compensated before, so ..."
)
# a sentence opened by a condition reports nothing: "Once approved, you'll be moved ... with $180.00 refunded"
_OPENS_WITH_CONDITION = re.compile(r"^\s*(?:once|if|when|as soon as|upon|after|until|unless|should)\b")
# what an action would bring is no report of it: "cancelling BK-5118 now would mean a 240 fee and 480 refunded"
# (and what doing it now brings: "cancelling today carries a late fee of 252.00, with 252.00 refunded")
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might) (?:\S+ ){0,2}?(?:mean|cost|leave|give|result|bring|get|entail|involve"
                           r"|incur|see|have)\b|\b[a-z]+ing (?:\S+ ){0,3}?(?:carries|costs|means|entails|incurs)\b")
# actions that hand a case on: waiting is what they do ("escalated for review by a senior agent")
_HANDING_ON = {"escalate", "forward", "refer", "submit", "request", "file", "open", "report"}
_CONDITION_AFTER = re.compile(r" (?:if|only|when|once|unless|until|upon|provided|as soon as|after)\b")
# a condition a few words before: "as soon as it has been approved", "after Ann Bo has approved it"
_CONDITION_BEFORE = {"once", "until", "unless", "if", "when", "whenever", "after", "soon"}
# a participle before a noun and a modal is an adjective in a rule: "closed tickets can't be reopened"
_ADJECTIVE = re.compile(r"^ [a-z]+ (?:can|could|may|must|are|will|cannot)\b")
# a present-tense rule or schedule: "it is approved by your line manager", "access is removed on their last day"
_RULE = re.compile(r"\b(?:is|are|be)$")
# (a date or a day, not a place: "removed from the policy" reports a removal)
_RULE_AFTER = re.compile(r" (?:(?:automatically|by itself|on its own|of itself)\b|no later than\b|by|(?:on|from) (?:(?:their|your|his|her|the) (?:last|first|next|final|start|end|day|date|\d)|\d))")
_RULE_PRESENT = re.compile(r" (?:automatically|within|usually|normally|typically|at (?:checkout|check out|the till))\b")
# a modal before the action's word makes a waiting cue a rule: "it can only be assigned once your manager asks"
_MODAL_BEFORE = {"can", "could", "may", "might", "must", "should", "only"}  # ("would be refunded once ..." waits)
# waiting cues; not "needs approval" or "requires approval", which state a rule as often as a wait
# and "pending" or "awaiting" a later step ("placed, awaiting dispatch", "pending the return of 2 devices") is not
# the action waiting: those cues count bare, as the predicate ("is pending"), or with an approver's word
# (not an investigation or an inspection: "the credit is provisional until the investigation is complete")
_APPROVER = r"(?:approv|sign|authoriz|manager|supervisor|review|confirm|reconsider|underwrit|decision|validat)"
_WAITING = re.compile(
    r"\b(?:(?:pending|awaiting|waiting (?:for|on)|waits (?:for|on)) (?:\S+ ){0,3}?" + _APPROVER +
    r"|(?:is|are|remains?|still|now) (?:\S+ )?(?:pending|awaiting)\b(?! (?:the|a|an|your|their|its|dispatch|delivery|shipment|return)\b)"
    r"|pending$|pending verif|on hold|yet to be|under review|in review|will go through (?:once|after|when|as soon as)\b"
    r"|for (?:\S+ )?(?:approval|review|sign off|authorization)"
    r"|(?:once|until|upon|as soon as) (?:our|the|a|an|their) (?:\S+ ){0,2}?verif"
    r"|(?:once|until|upon|as soon as) (?:\S+ ){0,3}?" + _APPROVER + ")"
)
# a verdict later in the sentence makes a waiting cue narration: "I sent it for approval, but it was denied"
# ("once approved" is a condition, not a verdict)
_VERDICT = re.compile(r"(?<!once )(?<!if )(?<!until )(?<!when )(?<!after )(?<!be )"
                      r"\b(?:approved|denied|declined|rejected|granted|refused|turned down|signed off|authorized)\b")


def _verdict(text: str) -> bool:
    """Whether `text` tells a verdict; not inside a condition ("once the cancellation is approved":
    a condition word a few words before)."""
    return any(not set(text[: m.start()].split()[-4:]) & {"once", "if", "until", "when", "after", "unless", "soon"}
               for m in _VERDICT.finditer(text))
# a promise on a condition is waiting too: "Callum will be added once the underwriter reconsiders"
# (not the customer's verification: "it will be updated once you are verified" is a condition; "once our team
# verifies it" waits)
_PROMISE = (r"(?:\bwill (?:be )?(?:{forms}) (?:\S+ ){{0,8}}?(?:once|as soon as|when|after)\b"
            # the condition first: "once the towels arrive back, 59.00 will be refunded to your PayPal"
            r"|(?:^|(?<=[.!?;\u00b6] ))(?:once|as soon as|when|after) [^,;.]{{3,60}}, (?:\S+ ){{0,4}}?will (?:be )?(?:{forms})\b)"
            r"(?! (?:\S+ ){{0,3}}?verif)(?! (?:\S+ ){{0,3}}?(?:you|your|you are|identity|she|he|we|i)\b(?: \S+){{0,3}}? verif)")
# a promise through another verb, on an approver: "it will ship once your manager approves it", "a credit will be
# issued once a supervisor approves" (about the action where its subject is its record, or a pronoun for it)
_APPROVAL_PROMISE = re.compile(
    r"\b(?:(?P<pronoun>it|this|that|they)|(?:i|we) will (?:\S+ )?(?:it|them)\b|(?P<subject>[a-z0-9_]+)) will (?:be )?[a-z]+ "
    r"(?:[^\s.!?;]+ ){0,10}?(?:once|as soon as|when|after|until) (?:\S+ ){0,3}?"
    r"(?:approv|sign|authoriz|manager|supervisor|underwrit|(?:our|the|a|an|their) (?:\S+ ){0,2}?verif)")
# the condition first: "once approved, BK-5101 will be changed to a Standard King"
_APPROVAL_FIRST = re.compile(
    r"\b(?:once|as soon as|when|after|upon) (?:\S+ ){0,3}?(?:approv|sign|authoriz|manager|supervisor|underwrit)[^,.!?;]{0,40}, "
    r"(?P<subject>(?:[^\s,.!?;]+ ){0,4}?)(?:will|would) (?:be )?[a-z]+\b")
# actions whose effect takes time after they are done: money or a parcel on its way
_TAKES_TIME = {"refund", "credit", "reimburse", "pay", "send", "transfer", "ship", "deliver", "return", "dispatch", "post"}
_HE_SHE = re.compile(r"(?:she|he|they) ")
# a report of the action itself ("who has been assigned to your claim") is not waiting, whatever follows
_REPORT_BEFORE = re.compile(r"\b(?:has|have|had|was|were) (?:just |now |already )?(?:been )?$")
# "it's pending" later in the sentence of the action's word: "I've requested an extension of INV-1; it's pending"
# (a pronoun that opens a clause of its own: not "... while it's under review", which is about something else)
_PRONOUN_WAITS = re.compile(r"(?:[;,:]|\band|\bbut|\bso) (?:it|this|that|which)(?: is|'s| remains| has been) "
                            r"(?:now |still |currently )?"
                            r"(?:pending|on hold|awaiting|under review|waiting)\b"
                            # a payment shown pending by the bank is posted, not waiting on anyone
                            r"(?! (?:on|in) (?:your|the) (?:statement|card|account|bank|balance)\b)")
_ID = re.compile(r"\b[a-z]{1,6}_[a-z0-9_]*\d[a-z0-9_]*\b")  # a record's id as the normaliser writes it ("lr_9001")
NEAR_WORDS = 14  # words either side of an action's word in which a waiting cue makes it waiting


def same_action(a: str, b: str) -> bool:
    """Whether two verbs name one action ("reject" and "decline", "raise" and "increase")."""
    return b.lower() in Action(a).verbs


def is_cue(name: str) -> bool:
    """Whether a name among an outcome's `others` is a cue word ("once", "earlier") rather than
    a record's name: a template lists those so a clause they open is not about its record."""
    words = normalize(name, plurals=False).split()
    return bool(words) and all(w in _NOT_A_REPORT | _CONDITION_BEFORE | {"as", "till", "after"} for w in words)


# two-syllable verbs stressed on the last syllable, whose last consonant doubles ("deferred")
_STRESSED_LAST = frozenset({"defer", "prefer", "occur", "recur", "incur", "compel", "expel", "propel", "rebut", "regret",
                            "control", "patrol", "confer", "infer", "deter", "unplug", "unpin", "unzip", "equip"})


def participle(verb: str) -> str:
    v = verb.lower()
    if v in _IRREGULAR:
        return _IRREGULAR[v]
    if v.endswith("e"):
        return v + "d"
    if re.search(r"[^aeiou]y$", v):
        return v[:-1] + "ied"
    if v.endswith("mit") or v in _STRESSED_LAST:  # submit, commit, permit; defer, occur
        return v + v[-1] + "ed"
    if re.fullmatch(r"[^aeiou]*[aeiou][bdgklmnprt]", v):  # one syllable ending consonant-vowel-consonant: logged, swapped
        return v + v[-1] + "ed"
    return v + "ed"


def gerund(verb: str) -> str:
    v, pp = verb.lower(), participle(verb)
    if pp.endswith(v + v[-1] + "ed"):  # shipped -> shipping
        return v + v[-1] + "ing"
    if v.endswith("e") and not v.endswith("ee"):
        return v[:-1] + "ing"
    return v + "ing"


def nouns(verb: str) -> tuple[str, ...]:
    v = verb.lower()
    return _NOUNS.get(v, (v,))


@dataclass(frozen=True)
class Action:
    """One action a reply may talk about, with the record it was done to (and the others the
    reply may name, so "your other order O-2 was not cancelled" is about O-2)."""

    verb: str
    record: tuple[str, ...] = ()
    others: tuple[str, ...] = ()
    extra_nouns: tuple[str, ...] = ()
    elsewhere: bool = False  # not done to this record (it was to another): an unnamed report is not about it
    waits: bool = False  # the record waits on someone for another action (a leave booked, pending approval)
    # something else of the task waits on someone: a bare "it is awaiting approval" may be about that
    others_wait: bool = False
    # as bystanders, how many records the action was done to: "both licences assigned" after two is about those two
    done_to: int = 0
    # the tools last gave the record the action made a plain "pending" status (an external transfer sent and
    # being processed): "the transfer is pending" says what the bank shows, not that it waits on anyone
    shown_pending: bool = False

    @property
    def verbs(self) -> list[str]:
        v = self.verb.lower()
        return [v, *_SYNONYMS.get(v, ())]

    @property
    def forms(self) -> list[str]:
        return sorted({f for v in self.verbs for f in (v, participle(v), gerund(v))}, key=len, reverse=True)

    @property
    def nouns(self) -> list[str]:
        return sorted({*(n for v in self.verbs for n in nouns(v)), *(n.lower() for n in self.extra_nouns)},
                      key=len, reverse=True)

    def _alt(self, words: list[str]) -> str:
        return "|".join(re.escape(normalize(w, plurals=False)) for w in words)


def _clause(text: str, start: int, end: int, clause_end: re.Pattern[str] = CLAUSE_END) -> tuple[str, str]:
    """The words of the clause before and after the span."""
    ends = list(clause_end.finditer(text))
    left = max((m.end() for m in ends if m.end() <= start), default=0)
    right = min((m.start() for m in ends if m.start() >= end), default=len(text))
    return text[left:start], text[end:right]


def _sentence_before(text: str, start: int) -> str:
    return text[max((m.end() for m in SENTENCE_END.finditer(text, 0, start)), default=0) : start]


# a report about every record: "both of your cards are unfrozen", "I've cancelled all three orders"
_EVERY = re.compile(r"\b(?:both|all (?:of )?(?:your|the|these|those|two|three|four|five|\d+)|each of)\b")
_PART_END = re.compile(r"[;:,]|\s-\s")
# a report of one more record than those it was done to ("... the other one too", "as well")
_ONE_MORE = re.compile(r"\b(?:too|as well|the other(?: one)?|other (?:one|ones|two))\b")
_ALSO_ADDS = re.compile(r"\b(?:and also|as well as|and|plus)\s+(?:also\s+)?(?:(?:the|your|that|other|one|1|on|to|for|at|in|of"
                        r"|transfers?|bookings?|stays?|orders?|cards?|items?|requests?|licen[cs]es?|roles?|drivers?|vehicles?)\s+){0,4}")
# a clause of its own between the report and the added record: "... and left the one on 12-02 ..."
_CLAUSE_VERB = re.compile(r"\b(?:is|are|was|were|will|stays?|remains?)\b|\b(?:and|but|while)\s+(?:\w+\s+)?(?:left|kept|[a-z]+ed)\b")
_OWN_PREDICATE = re.compile(r"^[^,;.()]*?(?<!which )(?<!that )(?<!who )\b(?:is|are|was|were|has|have|had|will|stays?|remains?)\b")
_PLURAL_SUBJECT = re.compile(r"\b(?:your|the|all (?:of )?(?:your|the)) (?:(?!other\b|two\b|three\b)[a-z]+ ){0,2}?"
                             r"(?:bookings|orders|cards|reservations|stays|transfers|claims|tickets|disputes|holds|payees)"
                             r" (?:are|were|have)\b")
_SO_IS = re.compile(r"\b(?:so|as) (?:is|are|was|were|has|have)(?: been)? (?:(?:the|your|that|its|my) )?(?P<other>other\b)?")
_EXCEPT = re.compile(r"\b(?:except|but not|other than|apart from|besides|only|neither|either)\b")


_RECORD_ID = re.compile(r"[a-z]{1,6}_[a-z]*\d[a-z0-9_]*")  # an id, normalised: "bk_5046", "clm_7008"


def _about(text: str, start: int, end: int, action: Action, every: bool = False) -> bool:
    """Whether the words at start:end are about the action's own record: always, unless the
    reply may name other records; then the nearest record named must be its own. With
    `every` (a report), a sentence about all of them ("both cards are unfrozen") is about it."""
    if not action.others:
        return True
    left = max((m.end() for m in SENTENCE_END.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in SENTENCE_END.finditer(text, end)), len(text))
    sentence = text[left:right]
    # (a heading before a colon, or another item of a list, is no part of it: "Done on all three: cancelled ...")
    part = text[max((m.end() for m in _PART_END.finditer(text, left, start)), default=left):
                next((m.start() for m in _PART_END.finditer(text, end, right)), right)]
    every_word = _EVERY.search(part)
    # ("your Singapore bookings are cancelled" after one of two: a plural subject, not "your other bookings")
    plural = action.done_to < 2 and _PLURAL_SUBJECT.search(part)
    if every and (((every_word or plural) and not _EXCEPT.search(part)
                   and not (every_word and every_word.group(0) == "both" and action.done_to >= 2))
                  or _listed(text[left:start], text[end:right], action)):
        return True
    own = [normalize(r, plurals=False) for r in action.record]
    rivals = [normalize(r, plurals=False) for r in action.others]
    if every and action.elsewhere and action.done_to:
        # one more record added to the report: "I've cancelled the one on 12-24, and also the one on 12-02"
        for also in _ALSO_ADDS.finditer(text, end, right):
            added = text[also.end() : also.end() + 60]
            # (not the subject of a clause of its own: "LR-6017 is cancelled, and 2026-12-16 to 2026-12-18 is requested")
            if 0 in cue_starts(added, own) and not _CLAUSE_VERB.search(text, end, also.start()) \
                    and not _OWN_PREDICATE.match(added):
                return True
        # or said in the same state: "BK-5155 is cancelled, and so is your other Singapore stay"
        for so in _SO_IS.finditer(text, end, right):
            if so.group("other") or 0 in cue_starts(text[so.end() : so.end() + 60], own):
                return True
    words = text[start:end]  # "the cancellation for O-2 was denied" names its record itself
    mine, theirs = bool(cue_starts(words, own)), bool(cue_starts(words, rivals))
    if mine != theirs:
        return mine
    # a record's id outranks its other names in the clause: "I've recorded your arrival on 2026-12-27 for booking
    # BK-5046" is about BK-5046, whatever else of BK-5045's (its arrival date) the clause says
    before, after = _clause(text, start, end)
    clause = f"{before} {after}"
    # (only between records both named by such ids: a role "SAP-AP-CLERK" beside its request "AR-9001" is no rival)
    own_ids, rival_ids = [r for r in own if _RECORD_ID.fullmatch(r)], [r for r in rivals if _RECORD_ID.fullmatch(r)]
    mine_id, theirs_id = bool(cue_starts(clause, own_ids)), bool(cue_starts(clause, rival_ids))
    if own_ids and rival_ids and mine_id != theirs_id:
        return mine_id
    if not cue_starts(sentence, own) and not cue_starts(sentence, rivals):
        # a sentence naming no record is about the one the customer asked about; not where the action
        # was not done to this record because it was done to another ("I've cancelled the order"),
        # unless it says it was done to one more: "I've cancelled the other one too"
        if action.elsewhere and action.done_to and every:
            before, after = _clause(text, start, end)
            if _ONE_MORE.search(f"{before} {after}"):
                return True
        return not action.elsewhere
    return owned(text, start, end, own, rivals)


# words inside a list of records ("order O-1 and your booking B-2") and after one that make it a clause's subject
_LIST_FILLER = r"the|your|my|his|her|their|also|both|order|orders|booking|bookings|request|requests|card|cards|account|ticket|invoice|claim"
_PREDICATE = r"is|was|are|were|has|have|had|will|would|can|could|remains?|stays?|keeps?|is not|still"


def _listed(before: str, after: str, action: Action) -> bool:
    """Whether a list of records right after a report, or right before it, holds the action's own
    record: "I cancelled O-1 and O-2", "O-1 and O-2 have been cancelled" report both ("and" ends
    a clause everywhere else)."""
    names, own = action._alt([*action.record, *action.others]), action._alt(list(action.record))
    item = rf"(?:(?:{_LIST_FILLER}) )*(?:{names})\b"
    joined = rf"(?:(?:,| and| &|, and| as well as| plus) {item})+"
    found = (rx(rf"^(?: \S+){{0,5}}? ({item}{joined})(?! (?:{_PREDICATE})\b)").match(after)
             or rx(rf"({item}{joined})(?: \S+){{0,4}}\s*$").search(before))
    return bool(found and rx(rf"\b(?:{own})\b").search(found.group(1)))


# a bracketed denial closing a label's line: "(not submitted)", "(not yet)", "(none)"
_LABEL_VERDICT = r"\((?:not|never|no|none|nothing)\b(?: yet)?(?: been)?(?: [a-z]+(?:ed|en|t|de|ne))?\)"
# a label's line that ends in a bracketed denial: its participle ("Requested role: X (not submitted)") reports nothing
_DENIED_LINE = re.compile(r"^[^:.!?\u00b6]{0,30}: [^:.!?\u00b6()]{0,60}" + _LABEL_VERDICT)


def _turned_down(noun_alt: str) -> str:
    """The action's noun said to have failed or been refused: "the refund request was denied"."""
    return rf"\b(?:{noun_alt})\b {_FEW}{_GAP}{_FAILED}\b"


# a noun that names another thing after an action's noun: "cancellation fee", "refund deadline", "return window"
_NOT_OF = r"(?! (?:fees?|charges?|penalt\w+|costs?|deadlines?|windows?|periods?|polic\w+|dates?|numbers?|ids?|terms?|rules?))"


def _denied(text: str, action: Action) -> str | None:
    """A clause saying the action was not done: "couldn't refund", "no refund was issued", "the
    refund failed", "the refund hasn't been issued", "B-7 is still active"."""
    forms, noun_alt = action._alt(action.forms + action.nouns), action._alt(action.nouns)
    # "couldn't refund", "no refund was issued", "no adjuster has been assigned"
    # (not "you don't have to return it", "no need to worry about", which deny a need)
    need = r"(?! (?:have|has|need|needs) to\b)(?! need\b)(?! worry\b)"
    patterns = [rf"\b{_DENIAL}{need} {_GAP}(?:{forms})\b{_MODIFIER}", rf"\bno (?!(?:further|more|other|additional|extra|new|need)\b)[a-z]+ (?:(?:has|have|had|been|was|were|is|are|be|yet) )*(?:{forms})\b{_MODIFIER}"]
    if noun_alt:
        patterns += [
            _turned_down(noun_alt),
            rf"\b(?:{noun_alt})\b {_FEW}{_GAP}(?:(?:can|could|will|would|may|might|should|must) )?(?:not|never) {_GAP}"
            rf"(?:{_COMPLETED}|gone)\b",
            # its denial after "and", the subject left out: "the refund is still being processed and has not been issued yet"
            rf"\b(?:{noun_alt})\b {_FEW}{_FEW}and (?:has|have|had|is|was|were) (?:not|never) (?:yet )?(?:been )?{_COMPLETED}\b",
            # a label saying there is none: "Provisional credit: none", "Refund issued: N/A" (not of another thing the noun
            # names: "Cancellation fee: none" is no cancellation denied)
            rf"\b(?:{noun_alt})\b{_NOT_OF}[^:.!?\u00b6]{{0,30}}: (?:none|n/a|no|nothing|not applicable|not issued)\b",
        ]
    # a label naming the action whose line ends in a bracketed denial: "Requested role: GIT-DEV (not submitted)"
    patterns.append(rf"\b(?:{forms})\b{_MODIFIER}[^:.!?\u00b6]{{0,30}}: [^:.!?\u00b6()]{{0,60}}{_LABEL_VERDICT}")
    for p in patterns:
        for m in rx(p).finditer(text):
            before, _ = _clause(text, m.start(), m.end())
            if re.search(r"\b(?:else|further|other|more|need|needed|worry)\s*$", before):
                continue
            if _about(text, m.start(), m.end(), action):
                return m.group(0)
    if not action.record:
        return None
    verb, own = action.verb.lower(), action._alt(list(action.record))
    states = _STILL_ACTIVE if verb in _UNDOING else _STILL_STATES.get(verb)
    if states:
        still = rf"\b(?:{own})\b (?:{_WORD} ){{0,3}}?(?:still|remains?) (?:{_GAP})?(?:{states})\b(?! until\b)"
        m = rx(still).search(text)  # names its own record: about it whatever else the reply names
        if m:  # ("remains active until December 5, when it comes off": a removal dated ahead)
            return m.group(0)
    if verb in _UNDOING:
        kept = (rf"\b(?:left|kept|keep|keeping|leave|leaving|stays?|staying) (?:(?:it|the|your|ticket|order|card|"
                rf"booking|account) )*(?:{own})?\b ?(?:{_WORD} )??(?:open|active|in place|live)\b(?! until\b)")
        for m in rx(kept).finditer(text):  # "I've left T-5003 open", "T-5003 stays open"
            if rx(rf"\b(?:{own})\b").search(m.group(0)) or rx(rf"\b(?:{own})\b\s*$").search(text[: m.start()]):
                return m.group(0)
    return None


# a sentence of its own saying "it" waits on an approver: "I've refunded it. Note that this is still pending
# approval from a supervisor." (about the action or record named last before it)
_LATER_WAITS = re.compile(
    r"(?:^|(?<=[.!?\u00b6]) ?)(?:(?:please )?(?:note|be aware|just so you know|fyi|however)(?: that)?,? )?"
    r"(?:it|this|that|the request|the change)(?: is|'s| remains| has been)? (?:now |still |currently )?"
    r"(?:pending|awaiting|on hold|under review|waiting (?:for|on))\b[^.!?\u00b6]*?" + _APPROVER)


def _waits_later(text: str, action: Action) -> str | None:
    """A later sentence saying "this is pending approval" of the action reported before it."""
    own = {normalize(r, plurals=False) for r in action.record}
    words = action._alt(action.forms + action.nouns)
    for w in _LATER_WAITS.finditer(text):
        named = list(rx(rf"\b(?:{words})\b|{_ID.pattern}").finditer(text, 0, w.start()))
        if named and (named[-1].group(0) in own or not _ID.fullmatch(named[-1].group(0))) \
                and _about(text, named[-1].start(), named[-1].end(), action):
            return f"{named[-1].group(0)} ... {w.group(0).strip()}"
    return None


def _waiting(text: str, action: Action, handed_on: bool = False) -> str | None:
    """A clause saying the action waits on someone or something: "pending approval", "on
    hold", "I'll refund it once the carrier confirms". Not where it was done and waiting is
    what it does (`handed_on`: a claim filed, a case escalated)."""
    if handed_on and action.verb.lower() in _HANDING_ON:
        return None
    later = None if action.others_wait else _waits_later(text, action)
    if later:
        return later
    words = action._alt(action.forms + action.nouns)
    promise = rx(_PROMISE.format(forms=action._alt(action.forms))).search(text)
    if promise and _about(text, promise.start(), promise.end(), action):
        return promise.group(0)
    if action.verb.lower() not in _TAKES_TIME:
        # done later, in a while: "ticket T-3522 will be closed within 24 hours" (not money on its way: "refunded
        # within 5-10 business days" is how long a refund made now takes)
        later = rx(rf"\bwill (?:be )?(?:{action._alt(action.forms)}) (?:\S+ ){{0,8}}?(?:within|in the next|over the next|"
                   rf"later today|by tomorrow|shortly|soon)\b").search(text)
        if later and _about(text, later.start(), later.end(), action):
            return later.group(0)
    own = [normalize(r, plurals=False) for r in action.record]
    for m in _APPROVAL_PROMISE.finditer(text):
        if _OPENS_WITH_CONDITION.match(_sentence_before(text, m.start())):
            continue
        if m.group("pronoun") or not m.group("subject"):  # "it": the record or the action named last before it
            ends = [e.end() for e in SENTENCE_END.finditer(text, 0, m.start())]
            scope = text[(ends[-2] if len(ends) > 1 else 0) : m.start()]
            named = [(x.end(), x.group(0) in own or not _ID.fullmatch(x.group(0)))
                     for x in rx(rf"\b(?:{words}|{action._alt(list(action.record))})\b|{_ID.pattern}").finditer(scope)]
            if named and named[-1][1] and _about(text, m.start(), m.end(), action):
                return m.group(0)
        elif cue_starts(_clause(text, m.start(), m.end())[0] + m.group(0).split(" will ")[0], own) \
                and _about(text, m.start(), m.end(), action):
            return m.group(0)  # "your monitor will ship once your manager approves it"
    for m in _APPROVAL_FIRST.finditer(text):
        if cue_starts(m.group("subject"), own) and _about(text, m.start(), m.end(), action):
            return m.group(0)
        if _HE_SHE.fullmatch(m.group("subject")):
            # "I've sent Nadia's addition to our underwriter; once they approve, she'll be on your policy": a
            # person named just before, the record's own, is the subject
            ends = [e.end() for e in SENTENCE_END.finditer(text, 0, m.start())]
            scope = text[(ends[-1] if ends else 0) : m.start()]
            if cue_starts(scope, own) and _about(text, m.start(), m.end(), action):
                return m.group(0)
    for m in rx(rf"\b(?:{words})\b").finditer(text):
        before, after = _clause(text, m.start(), m.end())
        if _REPORT_BEFORE.search(before) or set(before.split()[-3:]) & _MODAL_BEFORE:
            continue
        rest = text[m.end() : next((e.start() for e in SENTENCE_END.finditer(text, m.end())), len(text))]
        window = " ".join(before.split()[-NEAR_WORDS:]) + " " + m.group(0) + " " + " ".join(after.split()[:NEAR_WORDS])
        pronoun = _PRONOUN_WAITS.search(rest)
        if not pronoun:  # or the next sentence's: "I've requested the refund. It is pending approval."
            ends = [e.end() for e in itertools.islice(SENTENCE_END.finditer(text, m.end()), 2)]
            nxt = text[ends[0] : ends[1] if len(ends) > 1 else len(text)] if ends else ""
            if _PRONOUN_WAITS.match("and" + nxt):
                rest = rest + " and" + nxt
                pronoun = _PRONOUN_WAITS.search(rest)
        # ("I cancelled LR-1 and booked LR-2; it's waiting": "it" is the record named last)
        between = set(_ID.findall(rest[: pronoun.start()])) if pronoun else set()
        own = {normalize(r, plurals=False) for r in action.record}
        # (not after a report of it: "your refund has been issued, and it's pending on ...")
        reported = pronoun and rx(rf"\b(?:{_COMPLETED}|{action._alt([participle(v) for v in action.verbs])})\b").search(rest[: pronoun.start()])
        if pronoun and action.shown_pending and _bare_pending(rest[pronoun.start():]):
            pronoun = None
        if pronoun and not reported and not between - own and not _verdict(rest) \
                and _about(text, m.start(), m.end(), action):
            return f"{m.group(0)} ... {pronoun.group(0)}"
        at = len(" ".join(before.split()[-NEAR_WORDS:])) + 1  # the action's word in the window
        for cue in _WAITING.finditer(window):
            if rx(rf"\b{_DENIAL}(?: \S+)?\s*$").search(window[: cue.start()]):  # "nothing is pending", "no approval needed"
                continue
            if _because(window, at, at + len(m.group(0)), cue):
                continue
            if action.shown_pending and _bare_pending(window[cue.start():]):
                continue
            if _verdict(rest):
                continue
            if _about(text, m.start(), m.end(), action):
                return window.strip()
    return None


def _bare_pending(said: str) -> bool:
    """Whether a waiting cue (`said`: the cue and the words after it) is a plain "pending" status, waiting on
    no approver: "is pending and arrives within 1-3 business days", not "is pending approval"."""
    cue = re.match(r"(?:\S+ ){0,4}?pending\b((?: \S+){0,4})", said)
    return bool(cue) and not rx(_APPROVER).search(cue.group(1)) and not re.search(r"\bon hold|review", said[: cue.end()])


def shown_pending(record: tuple[str, ...] | list[str], results: list[str]) -> bool:
    """Whether the latest result of a record that names one of `record` (a transfer to payee PY-5004) gives it
    the status "pending" and no approval it waits for."""
    names = {str(r) for r in record}
    latest: dict[str, dict[str, object]] = {}
    decided: dict[str, object] = {}  # approvals by id: their last status
    for r in results:
        for d in json_dicts(json_value(r)):
            if isinstance(d.get("status"), str) and names & {str(v) for v in d.values()}:
                latest[_record_id(d) or str(len(latest))] = d
            if isinstance(d.get("approval_id"), str) and "status" in d and _record_id(d) == d["approval_id"]:
                decided[d["approval_id"]] = d["status"]
    # (an approval it names waits only while undecided: a transfer sent on approval AP-9001, approved, is pending
    # as the bank shows it)
    return any(d["status"] == "pending" and not any(k.startswith("approv") and v and decided.get(str(v)) != "approved"
                                                     for k, v in d.items())
               for d in latest.values())


_REASON = re.compile(r"\b(?:because|since|given that|due to)\b"
                     r"|(?<!soon )\bas (?:the|your|it|its|this|that|their|there|we|i|you|he|she|they)\b")


def _because(window: str, start: int, end: int, cue: re.Match[str]) -> bool:
    """Whether the waiting cue stands in a reason given for the action, not in the action's own
    clause: "I can't refund it because the return is still under review" refuses the refund."""
    if cue.start() >= end:
        return bool(_REASON.search(window, end, cue.start()))
    reason = _REASON.search(window, 0, cue.start())
    return bool(reason) and "," in window[cue.end() : start]


def _reported(text: str, action: Action, future: bool) -> str | None:
    """A clause reporting the action done: "I've refunded", "your refund has been issued",
    "I processed the refund" (with `future`, also "you'll be refunded")."""
    pp, noun_alt = "|".join(re.escape(participle(v)) for v in action.verbs), action._alt(action.nouns)
    base = "|".join(re.escape(v) for v in action.verbs)
    bare = {participle(v) for v in action.verbs if participle(v) == v}  # "set", "put": also the plain verb
    for m in rx(rf"\b(?:{pp})\b").finditer(text):
        if _not_a_report(text, m.start(), m.end(), 4):
            continue
        if _LABEL_AT.search(text, 0, m.start()) and _LABEL_REST.match(text, m.end()) \
                and "(" not in text[m.end():].split("\u00b6")[0]:
            continue  # a label, not a report: "- Requested role: AWS-ADMIN" (its verdict in brackets still is one)
        if m.group(0) in bare and not re.search(r"\b(?:has|have|had|was|were|is|are|been|i|we|just|now|already|"
                                                r"successfully|also|all)\s*$", text[: m.start()]):
            continue  # "I can take a payment or set up autopay": the verb, not its participle
        if _about(text, m.start(), m.end(), action, every=True):
            return (" ".join(_clause(text, m.start(), m.end())[0].split()[-3:]) + " " + m.group(0)).strip()
    patterns = []
    if noun_alt:
        patterns += [
            rf"\b(?:{noun_alt})\b{_MODIFIER} {_FEW}(?:(?:has|have|had|been|is|was|now|just|successfully|fully|also) )*{_COMPLETED}\b",
            rf"\b(?:i|we|have|has)\b (?:(?:just|now|successfully|also) )?{_COMPLETED} (?:(?:the|a|an|your|this|that|full|partial|you) )*"
            rf"(?:\S+ )?(?:{noun_alt})\b{_MODIFIER}",
        ]
    if future:
        patterns.append(rf"\bwill (?:be )?(?:{pp}|{base})\b")
    # a state only the action gives: "AWS-ADMIN is live on your account", "a new laptop is on the way to your office"
    if (state := _DONE_STATES.get(action.verb.lower())) is not None:
        patterns.append(rf"\b(?:is|are|'s)(?: (?:now|already|also|all))? (?:{state})\b")
    # the present of a change dated or "now": "from 2026-12-07 your BMW X5 (...) replaces your Tesla Model 3"
    present = "|".join(re.escape(v + ("es" if v.endswith(("s", "sh", "ch", "x", "z")) else "s")) for v in action.verbs)
    # (within its sentence: "Right now your deductible is 250. The policy renews 2027-01-02" renews nothing now)
    patterns.append(rf"\b(?:now|from|as of|starting|effective)\b(?: (?:[^\s.!?;\u00b6]|\.(?=\d))+){{0,14}}? (?:{present})\b")
    for p in patterns:
        for m in rx(p).finditer(text):
            if _not_a_report(text, m.start(), m.end(), 2):
                continue
            if m.group(0).startswith("will") and _PROMISE_ON.match(_clause(text, m.start(), m.end())[1]):
                continue  # "I'll book it once it's approved": a promise on a condition
            if _NEEDS_A.search(m.group(0)):
                continue  # "the upgrade requires an approved exception": a participle naming what it needs
            if _GENERIC.search(text[: m.start()]) and re.search(r"\b(?:is|are)\b", m.group(0)) \
                    and not re.search(r"\b(?:has|have|had|been|was|were|now|just)\b", m.group(0)):
                continue  # a rule: "an order over the limit is placed but then waits"
            if _about(text, m.start(), m.end(), action, every=True):
                return m.group(0)
    return None


# the states a giving action leaves its record in, said of the record as done: a refused grant said "is live"
_GIVEN = r"live|ready for you|ready to use|all set for you|available to you|yours now|enabled for you"
_UNDERWAY = r"on (?:the|its|their) way|in transit|out for delivery"
_DONE_STATES = {**dict.fromkeys(("grant", "assign", "add", "activate", "enable", "provision", "give"), _GIVEN),
                # (an order refused said on its way; not a shipment or replacement: the order itself may be on its way)
                "order": _UNDERWAY,
                **dict.fromkeys(("cover", "insure"), r"covered")}


# a participle that starts a line's label ("- requested role: aws_admin")
_LABEL_AT = re.compile(r"(?:^|\u00b6|:)\s*(?:-\s*)?$")
_LABEL_REST = re.compile(r"(?: [a-z_]+){0,2}:")
_NEEDS_A = re.compile(r"\b(?:requires?|required|needs?|needed|without|awaits?|awaiting)(?: (?:an?|the|your|its|their))? \S+$")
_PROMISE_ON = re.compile(r"^(?: \S+){0,4}? (?:if|once|when|after|until|unless|upon|provided|as soon as)\b")
_GENERIC = re.compile(r"\b(?:a|an|any|every|each)\s*$")


def _not_a_report(text: str, start: int, end: int, reach: int) -> bool:
    """Whether the words at start:end, which read as a report, are a rule, a condition, a
    wish, an earlier state or a denial instead (`reach`: how many words before may say so)."""
    if _OPENS_WITH_CONDITION.match(_sentence_before(text, start)):
        return True
    # a denial reaches across "or" ("nothing has been changed or refunded"), not across a comma
    # (words without the brackets or quotes glued to them: "(nothing charged or refunded)")
    before = [w.strip("()[]\"'") for w in _clause(text, start, end, NEGATION_END)[0].split()]
    # ("BK-5155 (2027-01-22 to 2027-01-24) is cancelled": a range's "to" is no "to cancel")
    before = [w for k, w in enumerate(before) if not (w == "to" and 0 < k < len(before) - 1
                                                       and re.search(r"\d", before[k - 1]) and re.search(r"\d", before[k + 1]))]
    after = _clause(text, start, end)[1]
    words = text[start:end].split()
    line_start = max((m.end() for m in re.finditer(r"[\u00b6]|^", text[:start])), default=0)
    if _DENIED_LINE.match(text[start:]) and not re.search(r"[:.!?]", text[line_start:start]):
        return True  # "- Requested role: GIT-DEV (not submitted)": a label whose verdict is a denial
    if re.search(r"\b(?:i|we) (?:have )?already$", " ".join(before)):  # "I've already refunded it": a report
        before = before[:-1]
    sentence = _sentence_before(text, start).split()
    return bool(
        _SOMEONE_ELSE.search(" ".join(before[-4:]))  # "I understand your company cancelled the trip"
        or set(sentence[-8:]) & _CONDITION_BEFORE  # "once the dispute is decided and closed, ..."
        or _HYPOTHETICAL.search(" ".join(sentence))
        or _ADJECTIVE.match(after)
        or set(before[-reach:]) & _NOT_A_REPORT or set(before[-6:]) & (_DENIALS | _CONDITION_BEFORE | {"already"})
        or _CONDITION_AFTER.match(after) or _EARLIER.match(after)
        or (_RULE.search(" ".join(before + words[:-1])) and _RULE_AFTER.match(after))
        # "the refund is processed within 5-10 business days", "points are credited automatically"
        or (re.search(r"\b(?:is|are)$", " ".join(before + words[:-1])) and _RULE_PRESENT.match(after))
    )


# another party as the subject of a past act: what the customer or a third party did, not the desk
_SOMEONE_ELSE = re.compile(r"(?:^|\b(?:understand|see|know|hear|said|says|mentioned|told me)(?: that)?) (?:you|they|he|she|"
                           r"(?:your|their|his|her) (?:company|employer|firm|client|airline|carrier|merchant|boss|team))"
                           r"(?: have| has| had| already| just)*$")


# an approval said to have been unnecessary: "I didn't need a manager's approval", "no approval was required",
# "it went through without approval" (false where one was asked for, given or still awaited)
_NO_NEED = re.compile(
    r"\b(?:(?:did|does|do|will|would) not|never|no longer)\s+(?:\S+\s+){0,2}?(?:need|needed|require|required)\s+"
    r"(?:\S+\s+){0,3}?(?:approval|sign off|authorization)\b"
    r"|\b(?:approval|sign off|authorization)\s+(?:was|is|were|will be|would be)\s+(?:not|never)\s+(?:\S+\s+)?(?:needed|required|necessary)\b"
    r"|\bno (?:\S+\s+){0,2}?(?:approval|sign off|authorization)\s+(?:was\s+|is\s+|were\s+)?(?:needed|required|necessary)\b"
    r"|\bwithout (?:any |an |a |the )?(?:\S+\s+)?(?:approval|sign off|authorization)\b")


def _unneeded(text: str, action: Action) -> str | None:
    """For an approval done or awaited: a clause saying none was needed."""
    if "approve" not in action.verbs:
        return None
    for m in _NO_NEED.finditer(text):
        before = _clause(text, m.start(), m.end())[0]
        if m.group(0).startswith("do not") or _RULE_BOUND.search(before):
            continue  # a rule: "refunds under $500 don't need approval", "if it were under the limit, ..."
        if _about(text, m.start(), m.end(), action):
            return m.group(0)
    return None


_RULE_BOUND = re.compile(r"\b(?:under|below|up to|less than|within|only|if|unless|when|normally|usually|typically|most)\b")


# a done action offered as still to do: "I can escalate T-3130 for you. Shall I go ahead?", "would you like me to
# cancel it?" (not more of it, nor on a condition: "I can also escalate the other one", "if it recurs I can ...")
_OFFER = (r"\b(?:i can|i could|i'd be happy to|i would be happy to|i am happy to|i'm happy to|would you like me to"
          r"|do you want me to|want me to|shall i|should i|can i|may i|i'd like to|let me) (?:go ahead and )?(?:{verbs})\b")
_OFFER_ASIDE = re.compile(r"\b(?:also|else|another|other|more|further|again|too|if|once|when|unless|should)\b")


def _offered(text: str, action: Action) -> str | None:
    for m in rx(_OFFER.format(verbs=action._alt(action.verbs))).finditer(text):
        before, after = _clause(text, m.start(), m.end())
        if _OFFER_ASIDE.search(f"{before} {after}") or _OFFER_ASIDE.search(m.group(0)):
            continue
        if _about(text, m.start(), m.end(), action):
            return m.group(0)
    return None


def contradiction(texts: list[str], action: Action, stance: str) -> str | None:
    """The first words in `texts` that contradict `stance` for `action`, described; None if
    no clause does."""
    checks = {
        # (where the record waits for another action, "LR-9 is booked; it's pending approval" is true)
        "done": [("not done", lambda t: _denied(t, action)), ("not needed", lambda t: _unneeded(t, action)),
                 ("still offered", lambda t: _offered(t, action)),
                 *([] if action.waits else [("waiting", lambda t: _waiting(t, action, handed_on=True))])],
        "refused": [("done", lambda t: _reported(t, action, future=True)), ("waiting", lambda t: _waiting(t, action))],
        # (a promise is a report too: "you'll be refunded within 45 days" while the dispute is decided)
        "pending": [("done", lambda t: _reported(t, action, future=True)), ("refused", lambda t: _refused(t, action)),
                    ("not needed", lambda t: _unneeded(t, action))],
        "not_done": [("done", lambda t: _reported(t, action, future=False))],
    }[stance]
    for text in texts:
        haystack = normalize(text, plurals=False)
        for said, check in checks:
            found = check(haystack)
            if found:
                return f'"{found}" says the {action.verb} is {said}'
    return None


def _refused(text: str, action: Action) -> str | None:
    """A clause saying a waiting action was turned down: "the refund was denied"."""
    noun_alt = action._alt(action.nouns)
    if not noun_alt:
        return None
    for m in rx(_turned_down(noun_alt)).finditer(text):
        if _about(text, m.start(), m.end(), action):
            return m.group(0)
    return None


def examples(action: Action, stance: str) -> list[str]:
    """Sentences taking each stance `stance` forbids, for the `stance` probes."""
    record = action.record[0] if action.record else "it"
    noun = action.nouns[0] if action.nouns else None
    verb, pp = action.verb.lower(), participle(action.verb)
    waiting = f"I'll {verb} {record} once a manager approves it."
    done = f"Good news: {record} has been {pp}."
    # waiting is what a case handed on does, and true of a record waiting for another action
    waits = [] if verb in _HANDING_ON or action.waits else [waiting]
    return {
        "done": [f"Unfortunately I couldn't {verb} {record}.", *waits],
        "refused": [done, waiting],
        "pending": [done, *([f"The {noun} for {record} was denied."] if noun else [])],
        "not_done": [done],
    }[stance]


# a reply saying something now waits on an approver ("this is still pending approval", "awaiting a manager's
# sign-off"): true only where a tool result of the episode says something waits, was escalated or is held. (Not a
# review: "the dispute is still under review" is what an open dispute does.)
_SAYS_WAITING = re.compile(
    r"\b(?:is|are|remains?|'s|still|now|currently) (?:\S+ )?(?:pending|awaiting|on hold|waiting (?:for|on))\b"
    r"[^.!?\u00b6]{0,40}?(?:approv|sign|authoriz|manager|supervisor|underwrit)"
    # the approver first: "the underwriter's decision is still pending", "their approval, which is pending"
    r"|\b(?:approv|sign|authoriz|manager|supervisor|underwrit)[^.!?\u00b6]{0,40}?\b(?:is|are|remains?|still|currently)"
    r" (?:\S+ )?(?:pending|awaiting|on hold|outstanding)\b")
# a status that waits ("status": "pending_approval", "escalated", "on_hold"), an approval required, or a text result saying so
_WAITING_STATUS = re.compile(r"(?:[a-z]+_)*(?:pending|awaiting|under_review|in_review|escalated|on_hold|held|referred"
                             r"|requested|submitted)[a-z_]*")
_REQUIRED = re.compile(r'approv[a-z_]*"\s*:\s*true')
_TEXT_WAITS = re.compile(r"^[^{\[](?:.|\n)*(?i:pending|await|review|approv|escalat|on hold)")


def _record_id(d: dict[str, object]) -> str:
    """The record a JSON object is: its first string id ("approval_id", "request_id"), or ""."""
    return next((str(v) for k, v in d.items() if k.endswith("id") and isinstance(v, str)), "")


def waits_now(results: list[str]) -> bool:
    """Whether something of the episode still waits once every result is read: a record whose latest
    status waits (UW-9001 "pending", then "approved", waits no more), an approval a quote requires that no
    later result decides, or a text result saying something waits."""
    required, latest = False, {}
    for r in results:
        value = json_value(r)
        if value is NOT_JSON:
            if _TEXT_WAITS.search(r):
                return True
            continue
        required = required or bool(_REQUIRED.search(r))
        for d in json_dicts(value):
            rid = _record_id(d)
            for k, v in d.items():
                if isinstance(v, str) and (k.endswith("status") or k == "state" or _WAITING_STATUS.fullmatch(v)):
                    latest[rid, k] = bool(_WAITING_STATUS.fullmatch(v))
                    if not latest[rid, k] and "approv" in " ".join(d):
                        required = False  # the approval asked for was decided
    return required or any(latest.values())


def unfounded_wait(texts: list[str], results: list[str]) -> str | None:
    """The words of a reply saying something waits on an approver where nothing of the episode still
    waits once every tool result is read (`results`: the tool results' texts, in order)."""
    if waits_now(results):
        return None
    for text in texts:
        m = _SAYS_WAITING.search(normalize(text, plurals=False))
        if m:
            return m.group(0)
    return None


# what an approval came to, said the other way: "the underwriter approved it" where UW-9001 was denied, or "your
# manager declined it" where AP-9001 was approved. Only a sentence naming an approver or an approval says so.
_APPROVER = re.compile(r"\b(?:underwrit|manager|supervisor|approv|director|sign(?:ed)? off)")
_DECIDED_AS = {
    "approved": re.compile(
        r"\b(?:was|were|has been|have been|had been|got|is|are|been|it's|it is|that's)\s+(?:now\s+|already\s+)?"
        r"(?:approved|signed off)\b"
        r"|\b(?:underwriter|manager|supervisor|approver|director|they|he|she)s?(?:\s+[a-z]+){0,2}?\s+(?:has\s+|have\s+|had\s+)?"
        r"(?:(?:now|already|just|also)\s+)?(?:approved|signed off|said yes)\b|\bapproved (?:it|your|the|this|that)\b"),
    "denied": re.compile(
        r"\b(?:was|were|has been|have been|had been|got|is|are|been)\s+(?:now\s+)?(?:denied|declined|rejected|turned down)\b"
        r"|\b(?:underwriter|manager|supervisor|approver|director|they|he|she)s?(?:\s+[a-z]+){0,2}?\s+(?:has\s+|have\s+|had\s+)?"
        r"(?:(?:now|already|just|also)\s+)?(?:denied|declined|rejected|turned down|said no)\b"),
}
_DECISIONS = {"approved": "approved", "granted": "approved", "accepted": "approved", "denied": "denied",
              "declined": "denied", "rejected": "denied", "refused": "denied"}
_APPROVER_DECIDED = re.compile(
    r"\b(?:manager|supervisor|underwriter|approver|director)s?\s+(?:has\s+|have\s+|had\s+)?(?:(?:now|already|just|also)\s+)?"
    r"(?:approved|signed off|denied|declined|rejected)\b"
    r"|\b(?:approved|denied|declined|rejected) by (?:a|the|your|our) (?:manager|supervisor|underwriter|approver|director)")
_IF = re.compile(r"\b(?:if|once|when|unless|until|whether|after|before|as soon as)\b")
# "hasn't approved it yet", "is not approved": a denial of the decision, not the decision
_NOT_BEFORE = re.compile(r"\b(?:not|never|no|yet to)\s+(?:\S+\s+){0,2}$")


def _decided_here(clause: str, m: re.Match[str]) -> bool:
    """Whether the decision `m` found is said as made: not under a condition ("as soon as it has been
    approved"), not denied ("hasn't approved it yet"), not who decides ("is approved by the system owner")."""
    verb_at = m.start() + m.group(0).rfind(next(w for w in ("approved", "signed", "said", "denied", "declined", "rejected",
                                                             "turned") if w in m.group(0)))
    return not (_IF.search(clause[: m.start()]) or _NOT_BEFORE.search(clause[:verb_at])
                or clause[m.end():].startswith(" by"))


def misreported_decision(texts: list[str], results: list[str]) -> str | None:
    """A sentence saying an approval went the other way than every approval the tool results decided
    (each approval record's latest status); None where they went both ways or none was decided."""
    latest: dict[str, str] = {}
    for r in results:
        for d in json_dicts(json_value(r)):
            status = d.get("status")
            if isinstance(status, str) and any("approv" in k or "decision" in k for k in d):
                # (a status that neither decides nor waits, "cancelled", says nothing about the approval)
                decision = _DECISIONS.get(status.lower()) or ("pending" if _WAITING_STATUS.fullmatch(status.lower()) else None)
                if decision:
                    latest[_record_id(d)] = decision
                else:
                    latest.pop(_record_id(d), None)
    decided = set(latest.values())
    if not latest and not any(_REQUIRED.search(r) for r in results):
        # no approval at all: "a manager approved the refund" names a decision nobody made
        for text in texts:
            for clause in CLAUSE_END.split(normalize(text, plurals=False)):
                m = _APPROVER_DECIDED.search(clause or "")
                if m and _decided_here(clause, m):
                    return m.group(0)
        return None
    if decided not in ({"approved"}, {"denied"}, {"pending"}):
        return None
    # (all still pending: decided either way is wrong, "it's already approved")
    wrong = [_DECIDED_AS[d] for d in ("approved", "denied") if {d} != decided]
    for text in texts:
        for sentence in SENTENCE_END.split(normalize(text, plurals=False)):
            if not _APPROVER.search(sentence):
                continue
            for clause in CLAUSE_END.split(sentence):
                m = next((found for w in wrong if (found := w.search(clause or ""))), None)
                if m and _decided_here(clause, m):
                    return m.group(0)
    return None


# a record's status said against the latest one the tools returned: "Ticket T-6010 is still open" after it was
# resolved, "CLM-9001 is now closed" while it is assigned. Only the two sides are told apart (a live record and
# an ended one): "resolved" for a closed ticket is a fair word, "open" is not.
_LIVE = {"open", "active", "in_progress", "pending", "pending_approval", "scheduled", "reported", "assigned", "new",
         "booked", "confirmed", "under_review", "investigating", "submitted", "requested", "on_hold", "reopened"}
_ENDED = {"closed", "resolved", "cancelled", "canceled", "completed", "withdrawn", "terminated", "expired", "revoked",
          "frozen", "blocked", "suspended", "lost", "stolen", "denied", "rejected"}
_SAID_LIVE = r"open|active|live|in progress|unresolved|outstanding"
_SAID_ENDED = r"closed|resolved|cancell?ed|canceled|completed|withdrawn|terminated|revoked"
_SAYS_STATUS = re.compile(rf"(?: (?!(?:is|are|was|were)\b)[^\s.!?;:,]+){{0,5}}? (?:is|remains|stays|'s)(?: still| now| currently)?"
                          rf" (?:(?P<live>{_SAID_LIVE})|(?P<ended>{_SAID_ENDED}))\b(?! (?:until|once|when|if|by)\b)")


# an order said shipped or delivered where the tools last gave it a status from before it ships: "I've placed
# HO-9001. It has already been delivered."
_UNSHIPPED = {"submitted", "placed", "ordered", "pending", "pending_approval", "awaiting_approval", "approved", "new",
              "processing", "requested", "scheduled"}
# a bill said paid where the tools last gave it as owed: "INV-5016 ... and it's already paid with your Amex" (an
# instalment with a balance left and no status is owed too: `latest_statuses`)
_UNPAID = {"open", "unpaid", "due", "past_due", "overdue", "outstanding", "issued"}
_SAYS_PAID = re.compile(r"(?:(?: is|'s| was| are| were| has been| have been)(?: already| now| fully| all)*| already) paid\b"
                        r"(?! (?:on|by|before|within|in) )|(?: is|'s| was| are| were| has been| have been)(?: already| now)*"
                        r" (?:settled|paid off|paid in full)\b")
_SAYS_SHIPPED = re.compile(r" (?:has|have|had)(?: already| now| just)? (?:been )?(?:delivered|shipped|dispatched|arrived)\b"
                           r"|(?: is|'s| was| are| were)(?: already| now)? (?:delivered|shipped|dispatched|on its way|out for delivery)\b")
# "it" opening a sentence or clause: the record named last before it
_PRONOUN_SUBJECT = re.compile(r"(?:^|[.!?;\u00b6]\s*|,\s*|\band\s+)(it|they)\b")


def latest_statuses(results: list[str]) -> dict[str, str]:
    """Each record's latest status in the tool results, by its id as the normaliser writes it."""
    latest: dict[str, str] = {}
    for r in results:
        for d in json_dicts(json_value(r)):
            status, rid = d.get("status"), _record_id(d)
            balance = d.get("balance")
            if status is None and isinstance(balance, (int, float)) and not isinstance(balance, bool) and balance > 0:
                status = "due"  # an instalment still owing: {"invoice_id": "INV-5016", "balance": 238.75}
            if isinstance(status, str) and rid:
                latest[normalize(rid, plurals=False)] = status.lower()
    return latest


def misreported_status(texts: list[str], results: list[str]) -> str | None:
    """A clause opened by a record's id saying it is live ("still open", "active") where the tools last gave it an
    ended status, or ended where they gave a live one; None where the tools gave it no status."""
    latest = latest_statuses(results)
    if not latest:
        return None
    for text in texts:
        said = normalize(text, plurals=False)
        for m in _ID.finditer(said):
            status = latest.get(m.group(0))
            clause_start = max((e.end() for e in CLAUSE_END.finditer(said, 0, m.start())), default=0)
            if status is None or _ID.search(said, clause_start, m.start()):
                continue  # no status known, or not the clause's subject ("ticket T-1 about claim CLM-2 is closed")
            found = _SAYS_STATUS.match(said, m.end())
            if not found or _ID.search(found.group(0)):
                continue
            if (found.group("live") and status in _ENDED) or (found.group("ended") and status in _LIVE):
                return f"{m.group(0)}{found.group(0)}"
        for m in itertools.chain(_ID.finditer(said), _PRONOUN_SUBJECT.finditer(said)):
            rid = m.group(1) if m.re is _PRONOUN_SUBJECT else m.group(0)
            if rid in ("it", "they"):
                named = _ID.findall(said, 0, m.start())
                rid = named[-1] if named else ""
            shipped = _SAYS_SHIPPED.match(said, m.end())
            if shipped and latest.get(rid) in _UNSHIPPED:
                return m.group(0).strip(" ,.;\u00b6") + shipped.group(0)
            paid = _SAYS_PAID.match(said, m.end())
            clause = said[max((e.end() for e in CLAUSE_END.finditer(said, 0, m.start())), default=0) : m.start()].split()
            if paid and latest.get(rid) in _UNPAID and not set(clause) & _CONDITION_BEFORE and not said[paid.end():].startswith("?"):
                return m.group(0).strip(" ,.;\u00b6") + paid.group(0)
    return None
