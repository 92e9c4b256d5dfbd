"""Which kind of record each id is, and an id said as another kind.

A reply that names the right ids in swapped roles ("I've filed claim T-9001 ... and opened
ticket CLM-9001") holds only real ids, so no check of made-up values catches it. The tools
say what each id is: the key it comes under in their results ("claim_id": "CLM-9001",
"ticket_id": "T-9001"). An id the reply calls by a kind that other ids of the episode have
and it never has is said in another's role.
"""

from __future__ import annotations

import re
from collections import defaultdict

# an id under its key in a tool's result: "claim_id": "CLM-9001", "replaces_card_id": "CD-1" (its last word)
_KEYED = re.compile(r'"(?:[a-z]+_)*(?P<kind>[a-z]+)_id"\s*:\s*"(?P<id>[A-Za-z]{1,6}-[A-Za-z0-9-]*\d[A-Za-z0-9]*)"')
# the kinds a reply names an id by; words that name any record ("request", "case", "reference") are left out, and
# people's but a driver's (a manager is an employee too, where the results give their id as "manager_id" alone)
KINDS = ("claim", "ticket", "order", "booking", "policy", "invoice", "dispute", "transfer", "return", "payee",
         "vehicle", "driver", "shipment", "approval", "quote", "refund", "payment")
# ("claim T-9001", "return number AP-9001", "the approval reference is R-9001", "return: AP-9001")
_SAID = re.compile(r"\b(?P<kind>" + "|".join(KINDS) + r")s?(?:\s+(?:number|no\.?|id|#|reference|ref\.?))?"
                   r"(?:\s+(?:is|was)|\s*[:=])?\s+(?P<id>[A-Za-z]{1,6}-[A-Za-z0-9-]*\d[A-Za-z0-9]*)\b", re.IGNORECASE)


def kinds_of(results: list[str]) -> dict[str, set[str]]:
    """Each id the results give under a `<kind>_id` key, with those kinds."""
    out: dict[str, set[str]] = defaultdict(set)
    for text in results:
        for m in _KEYED.finditer(text):
            out[m.group("id").upper()].add(m.group("kind"))
    return out


def mislabeled_id(texts: list[str], results: list[str]) -> str | None:
    """The first place a reply calls an id by a kind it does not have where other ids have that kind ("claim
    T-9001" where T-9001 is a ticket and CLM-9001 the claim)."""
    kinds = kinds_of(results)
    known = {k for ks in kinds.values() for k in ks}
    for text in texts:
        for m in _SAID.finditer(text):
            said, own = m.group("kind").lower(), kinds.get(m.group("id").upper())
            if own and said not in own and said in known:
                return m.group(0)
    return None


# a card or an account named by its brand and last digits: "Mastercard Corporate ending 9577", "Checking ending 5440"
_BRANDS = r"(?P<brand>visa|master\s?card|amex|american\s+express|discover|checking|savings)"
_LABEL = re.compile(_BRANDS + r"\b(?:[\s-]+[A-Za-z]+){0,3}?[\s,]+(?:card\s+|account\s+)?(?:ending|ends)(?:\s+in)?\s+"
                    r"(?P<last4>\d{4})\b", re.IGNORECASE)


def _brand(word: str) -> str:
    w = re.sub(r"\s+", "", word.lower())
    return {"americanexpress": "amex"}.get(w, w)


def misbranded_card(texts: list[str], results: list[str]) -> str | None:
    """The first card or account a reply names by a brand the tools never give its last digits ("your Visa ending
    9577" where 9577 is a Mastercard): the right digits with another's name."""
    brands: dict[str, set[str]] = defaultdict(set)
    for text in results:
        for m in _LABEL.finditer(text):
            brands[m.group("last4")].add(_brand(m.group("brand")))
    for text in texts:
        for m in _LABEL.finditer(text):
            own = brands.get(m.group("last4"))
            if own and _brand(m.group("brand")) not in own:
                return m.group(0)
    return None
