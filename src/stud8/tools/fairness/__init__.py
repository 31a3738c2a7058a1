"""The shuffle's fairness, tested as a test lab would (``stud8 admin rng-report``).

The deals come from the room's own shuffle run here (:func:`run.run_offline`, on
every core) or from the hands the room stored (:func:`run.run_stored`); they are
counted into a :class:`tally.Tally`, tested (:mod:`battery`: positions, short-deck
orders, 3rd-street hands by seat, consecutive deals, repeats, the cards as dealt) and
judged with Holm's correction (:mod:`report`), as text, JSON or an HTML page with
plots (:mod:`page`). ``docs/fairness.md`` says what is tested, what a pass means and
what it cannot show. Needs numpy and scipy (the tools extra), matplotlib for the page.
"""
