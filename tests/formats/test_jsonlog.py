"""The hand record's JSON codec of events (formats/jsonlog.py): cards read by name,
the lenient spellings still read, unknown and missing fields refused."""

from __future__ import annotations

import pytest

from stud8.core.cards import Card
from stud8.core.events import CardDealt, CommunityCardDealt, Folded
from stud8.formats.jsonlog import CodecError, decode_event, encode_event

DEAL = {"k": "deal", "seat": 2, "card": "Td", "face_up": False, "street": 3}


def test_every_card_reads_back_by_its_name() -> None:
    for rank in range(2, 15):
        for suit in "cdhs":
            card = Card(rank, suit)
            event = CardDealt(1, card, True, 3)
            assert decode_event(encode_event(event)) == event
            community = CommunityCardDealt(card)
            assert decode_event(encode_event(community)) == community


@pytest.mark.parametrize("written", ["td", "10d", " Td ", "10D"])
def test_other_spellings_of_a_card_are_still_read(written: str) -> None:
    assert decode_event({**DEAL, "card": written}).card == Card(10, "d")  # type: ignore[attr-defined]


@pytest.mark.parametrize("written", ["Tx", "1d", "", "TdTd", 10])
def test_what_is_no_card_is_refused(written: object) -> None:
    with pytest.raises(ValueError, match="card"):  # CodecError or CardError
        decode_event({**DEAL, "card": written})


def test_a_time_is_allowed_and_other_fields_are_not() -> None:
    assert decode_event({"k": "fold", "seat": 4, "t": "2026-11-26T07:00:00"}) == Folded(4)
    with pytest.raises(CodecError, match=r"the fold event has unknown fields \['x'\]"):
        decode_event({"k": "fold", "seat": 4, "x": 1})
    with pytest.raises(CodecError, match=r"unknown fields \['x'\]"):
        decode_event({"k": "fold", "seat": 4, "t": "2026-11-26T07:00:00", "x": 1})
    with pytest.raises(CodecError, match="the deal event has no 'street'"):
        decode_event({k: v for k, v in DEAL.items() if k != "street"})
    with pytest.raises(CodecError, match=r"deal\.seat must be a whole number"):
        decode_event({**DEAL, "seat": "2"})
