"""The room's tables as a whole: the lobby that opens, closes and lists them
(:mod:`.lobby`) and the plan that brings them back after a restart (:mod:`.restore`)."""
