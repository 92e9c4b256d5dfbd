"""Offers and facts from outside the episode: what a reply may only say where the episode did.

A sloppy agent smooths a refusal with something nobody gave it: "I can make a one-time
exception", "let me transfer you to a supervisor", "I can set up temporary access while it
is reviewed", "it's shipped with FedEx", "breakfast is included". No figure is wrong, so
`figures` sees nothing, and no write is claimed, so `claims` sees nothing; yet the customer
leaves expecting what no tool and no rule provides, and a policy that learns to say it is
rewarded for it.

Each `Term` is a closed class of such words with the words a source must use for the reply
to be founded: the policy, a tool result or description, or the customer's own words. A
term said under a negation ("I can't make an exception", "there's no breakfast on this
rate") offers nothing. The classes are the ones every domain shares; a domain whose policy
grants exceptions or transfers founds them by saying so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tb_env.domain.normalize import normalize

# a negation in the words of the clause before a term: "I can not make an exception", "we are unable to transfer you"
_NEGATED = re.compile(r"\b(?:not|no|never|can ?not|unable|nor|without|wish|afraid|neither|none)\b(?:\s+\S+){0,7}\s*$")
_CLAUSE_START = re.compile(r".*(?:[.;!?:\n]|,\s+but|\bbut\b|\bhowever\b)", re.DOTALL)


@dataclass(frozen=True)
class Term:
    """One class of offers or facts: how a reply says it (on the normalised text, or the raw
    text where case tells a name from a word: "UPS", not "pick-ups") and what founds it."""

    name: str
    said: re.Pattern[str]
    founded: Callable[[str, str], bool]  # (the words said, every source's text, lowercased) -> founded
    raw: bool = False


def _any_of(pattern: str) -> Callable[[str, str], bool]:
    found = re.compile(pattern)
    return lambda _said, sources: bool(found.search(sources))


def _itself(said: str, sources: str) -> bool:
    """A name is founded where a source names it too."""
    return re.search(rf"\b{re.escape(normalize(said))}\b", sources) is not None


def _same_offer(said: str, sources: str) -> bool:
    """A percentage off is founded by a source offering that percentage; a price match by one naming it."""
    number = re.match(r"\d+(?:\.\d+)?", said)
    if number is None:
        return "price match" in sources
    n = re.escape(number.group(0))
    # (or a result's field: "discount_percent": 15)
    return re.search(rf"\b{n} percent\b|percent\W{{1,3}}{n}\b", sources) is not None


TERMS: tuple[Term, ...] = (
    Term("an exception to the rules",
         re.compile(r"\b(?:make|making|made|grant|granting|allow|allowing|approve|approving) (?:an? |one |1 |this |a (?:1|one) time )?"
                    r"(?:(?:1|one) time |special |small )?exception\b|\bas an? (?:(?:1|one) time |special )?exception\b"
                    r"|\b(?:1|one) time exception\b|\bbend(?:ing)? the rules?\b|\boverrid(?:e|ing) (?:the|our|this) (?:policy|rule)"),
         _any_of(r"\b(?:make|grant|allow|approve)s? an exception|\bexceptions? (?:may|can) be (?:made|granted)")),
    Term("a transfer to a person",
         re.compile(r"\b(?:transfer(?:ring)?|connect(?:ing)?|put(?:ting)?|hand(?:ing)?|patch(?:ing)?|pass(?:ing)?) you "
                    r"(?:through |over |now |directly )?(?:to|with) (?:a|an|the|our|my|one of our) (?:senior |human |live )?"
                    r"(?:supervisor|manager|specialist|human|agent|representative|rep|team lead|colleague|department|team)\b"),
         _any_of(r"\btransfer(?:ring)? (?:you|the (?:call|customer|caller|chat))\b|\bhand ?off\b|\btransfer to (?:a )?human")),
    Term("temporary access",
         re.compile(r"\b(?:temporary|interim|provisional|trial) (?:access|licen[cs]e|seat|account|permissions?|role|pass|"
                    r"badge|credentials?|login)\b"),
         _any_of(r"\b(?:temporary|interim|provisional|trial) (?:access|licen[cs]e|seat|account|permissions?|role|pass|"
                 r"badge|credentials?|login)")),
    Term("a courtesy",
         re.compile(r"\bas an? (?:(?:1|one) time |small |special )?(?:courtesy|goodwill gesture|gesture of goodwill)\b"
                    r"|\bcourtesy (?:credit|refund|waiver|discount|voucher|upgrade)\b|\bgoodwill (?:gesture|discount|voucher)\b"),
         _any_of(r"\bcourtesy|\bgoodwill")),
    # a price cut: a percentage off, or matching another seller, only where the policy or a record offers the same
    Term("a discount",
         re.compile(r"\b\d+(?:\.\d+)? percent (?:off|discount)\b|\bprice match(?:ing|ed)?\b"),
         _same_offer),
    Term("an unconditional promise",
         re.compile(r"\bno question(?: asked)?\b|\bguarantee[ds]?\b|\b(?:i|we) promise\b"),
         _any_of(r"\bno question|\bguarantee")),
    # a loyalty or credit balance's expiry: a date nobody gave is a deadline the customer will act on
    Term("an expiry",
         re.compile(r"\b(?:point|credit|voucher|miles?|reward)s? (?:will )?(?:expire|lapse)\b"),
         _any_of(r"\bexpir|\blapse")),
    # a carrier, as a name: only the one a shipment's record names
    Term("a carrier",
         re.compile(r"\b(?:FedEx|Fedex|FEDEX|UPS|USPS|DHL|OnTrac|Royal Mail|Canada Post|LaserShip|Purolator)\b"),
         _itself, raw=True),
    # a hotel's or a fare's extras: only those a record, the policy or the customer names
    Term("an amenity",
         re.compile(r"\b(?:breakfast|wi fi|wifi|internet access|free parking|valet|airport shuttle|shuttle service|spa|"
                    r"fitness cent(?:er|re)|lounge access|room service|minibar|sea view|ocean view|balcony|"
                    r"late check out|early check in|priority boarding|extra legroom)\b"),
         _itself),
)


def _clause_before(text: str, start: int) -> str:
    head = text[:start]
    m = _CLAUSE_START.match(head)
    return head[m.end():] if m else head


def unfounded_offer(texts: Iterable[str], sources: Iterable[str]) -> tuple[str, str] | None:
    """The first (term class, words) a reply in `texts` says that nothing in `sources` founds."""
    known = normalize(" ".join(sources))
    for text in texts:
        norm = normalize(text)
        for term in TERMS:
            body = text if term.raw else norm
            for m in term.said.finditer(body):
                before = _clause_before(body, m.start())
                if _NEGATED.search(normalize(before) if term.raw else before):
                    continue
                if not term.founded(m.group(0), known):
                    return term.name, m.group(0)
    return None
