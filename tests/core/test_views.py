"""What each viewer may see (RULES.md section 7: "a player may see only what he was
allowed to see at the table")."""

from __future__ import annotations

from deal import deck_for, passive_action, play_passively

from stud8.core import BringIn, Call, Deck, Fold, Hand, TableRules, parse_cards
from stud8.core.events import CardDealt, CommunityCardDealt, HandMucked, HandShown
from stud8.core.views import events_for

RULES = TableRules(ante=1, bring_in=2, small_bet=4, big_bet=8)

# seat 1: a wheel (the best high and the only low); seat 2: tens and nines; seat 3: a
# pair of queens. 2c (seat 3) brings in. Checked down, nobody bets on 7th street: the
# earliest seat, 1, shows first; seats 2 and 3 cannot beat him and muck.
THREE = {
    1: "Ac 2d 7d 3s 4h 5d Kh",
    2: "Kc Td 9d 9h Ts 8c Jh",
    3: "Qc Qd 2c 9c Jd 6h 3h",
}
HIDDEN_3 = (None, None)


def hand_of_three() -> Hand:
    return Hand.start(rules=RULES, stacks={1: 100, 2: 100, 3: 100}, deck=deck_for(THREE))


def down(seat: int) -> tuple[object, ...]:
    """The seat's down cards in THREE: the first two and the seventh."""
    cards = parse_cards(THREE[seat])
    return (cards[0], cards[1], cards[6])


def up(seat: int) -> tuple[object, ...]:
    return parse_cards(THREE[seat])[2:6]


def test_rule_7_a_player_sees_his_own_down_cards_not_another_players() -> None:
    """RULES.md 7: "a player may see only what he was allowed to see at the table"."""
    hand = hand_of_three()
    for viewer in (1, 2, 3):
        view = hand.view(viewer)
        assert view.viewer == viewer
        for seat in (1, 2, 3):
            shown = view.seat(seat)
            assert shown.up_cards == up(seat)[:1]  # up cards are public
            assert shown.down_cards == (down(seat)[:2] if seat == viewer else HIDDEN_3)
    # to 7th street: three down cards each
    while hand.street < 7 or hand.to_act is None:
        hand.apply(passive_action(hand))
    assert hand.street == 7
    for viewer in (1, 2, 3):
        view = hand.view(viewer)
        for seat in (1, 2, 3):
            assert view.seat(seat).up_cards == up(seat)
            expected = down(seat) if seat == viewer else (None, None, None)
            assert view.seat(seat).down_cards == expected


def test_rule_7_an_observer_sees_no_down_cards_and_the_operator_sees_all() -> None:
    """RULES.md 7: "Kept for the operator's audits; a player may see only what he was
    allowed to see at the table."."""
    hand = hand_of_three()
    hand.apply(BringIn())
    observer = hand.view()
    operator = hand.view(everything=True)
    assert observer.viewer is None
    for seat in (1, 2, 3):
        assert observer.seat(seat).down_cards == HIDDEN_3
        assert observer.seat(seat).up_cards == up(seat)[:1]
        assert operator.seat(seat).down_cards == down(seat)[:2]
    # the public facts are the same for everyone
    for view in (observer, operator, hand.view(1), hand.view(2)):
        assert (view.pot, view.to_act, view.street, view.bring_in_seat) == (5, 1, 3, 3)
        assert view.seat(3).stack == 97
        assert view.seat(3).bet == 2


def test_rule_7_only_the_player_to_act_is_shown_his_legal_actions() -> None:
    """RULES.md 7: "a player may see only what he was allowed to see at the table"."""
    hand = hand_of_three()
    assert hand.to_act == 3
    assert hand.view(3).legal_actions == hand.legal_actions() != ()
    assert hand.view(1).legal_actions == ()
    assert hand.view().legal_actions == ()


def test_rule_7_shown_cards_become_public_mucked_cards_stay_hidden() -> None:
    """RULES.md 7: "a player may see only what he was allowed to see at the table"; 5: "A
    player who cannot win may muck instead of showing."."""
    hand = hand_of_three()
    play_passively(hand)
    assert [e.seat for e in hand.events if isinstance(e, HandShown)] == [1]
    assert [e.seat for e in hand.events if isinstance(e, HandMucked)] == [2, 3]
    for viewer in (None, 2, 3):
        view = hand.view(viewer)
        assert view.is_over
        assert view.seat(1).down_cards == down(1)  # shown to everyone
    assert hand.view(None).seat(2).down_cards == (None, None, None)
    assert hand.view(3).seat(2).down_cards == (None, None, None)
    assert hand.view(2).seat(3).down_cards == (None, None, None)
    assert hand.view(2).seat(2).down_cards == down(2)  # his own, still
    assert hand.view(everything=True).seat(3).down_cards == down(3)


def test_rule_7_folded_cards_stay_hidden() -> None:
    """RULES.md 7: "a player may see only what he was allowed to see at the table"."""
    hand = hand_of_three()
    hand.apply(BringIn())  # seat 3
    hand.apply(Fold())  # seat 1
    hand.apply(Fold())  # seat 2
    assert hand.is_over
    assert hand.view(None).seat(1).down_cards == HIDDEN_3
    assert hand.view(3).seat(2).down_cards == HIDDEN_3
    assert hand.view(None).seat(3).down_cards == HIDDEN_3  # the winner did not show
    assert not any(isinstance(e, HandShown) for e in hand.events)


def test_rule_7_events_for_hides_other_players_down_cards() -> None:
    """RULES.md 7: "a player may see only what he was allowed to see at the table"."""
    hand = hand_of_three()
    play_passively(hand)
    for viewer in (1, 2, 3, None):
        seen = list(events_for(hand.events, viewer))
        assert len(seen) == len(hand.events)
        for original, event in zip(hand.events, seen, strict=True):
            if isinstance(original, CardDealt):
                assert isinstance(event, CardDealt)
                assert (event.seat, event.face_up, event.street) == (
                    original.seat,
                    original.face_up,
                    original.street,
                )
                visible = original.face_up or original.seat == viewer
                assert event.card == (original.card if visible else None)
            else:
                assert event == original  # shown hands included: they are public
    hidden = [
        e for e in events_for(hand.events, None) if isinstance(e, CardDealt) and e.card is None
    ]
    assert len(hidden) == 3 * 3  # every down card: two on 3rd street, one on 7th
    assert list(events_for(hand.events, None, everything=True)) == hand.events
    # seat 2 sees his own three down cards and no other
    mine = [
        e.card
        for e in events_for(hand.events, 2)
        if isinstance(e, CardDealt) and not e.face_up and e.card is not None
    ]
    assert tuple(mine) == down(2)


def test_rule_7_the_community_card_is_seen_by_everyone() -> None:
    """RULES.md 4: "one card is dealt face up in the middle as a **community card**"; 7: "a
    player may see only what he was allowed to see at the table"."""
    hand = Hand.start(rules=RULES, stacks=dict.fromkeys(range(1, 9), 100), deck=Deck.seeded(2))
    while hand.street < 7:
        hand.apply(passive_action(hand))
    assert hand.community_card is not None
    for viewer in (None, 1, 8):
        assert hand.view(viewer).community_card == hand.community_card
        (seen,) = [e for e in events_for(hand.events, viewer) if isinstance(e, CommunityCardDealt)]
        assert seen.card == hand.community_card


def test_rule_7_views_of_a_betting_hand_keep_every_public_amount() -> None:
    """RULES.md 7: "a player may see only what he was allowed to see at the table" -- and
    what is public at the table (stacks, bets, the pot) is the same in every view."""
    hand = hand_of_three()
    hand.apply(BringIn())
    hand.apply(Call())
    views = [hand.view(v) for v in (None, 1, 2, 3)] + [hand.view(everything=True)]
    for view in views:
        assert [
            (s.seat, s.stack, s.bet, s.contributed, s.folded, s.all_in) for s in view.seats
        ] == [
            (1, 97, 2, 3, False, False),
            (2, 99, 0, 1, False, False),
            (3, 97, 2, 3, False, False),
        ]
        assert view.current_bet == 2
