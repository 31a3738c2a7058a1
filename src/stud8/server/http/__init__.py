"""The room's HTTP face: the Starlette app (:mod:`.app`, assembled declaratively), one
module per concept of endpoints (accounts, tables, hands, replays, tournaments,
invitations, health, the websockets), the limits on log-ins and sign-ups
(:mod:`.guard`), who may see which table (:mod:`.privacy`) and the room's websocket
protocol for uvicorn (:mod:`.websocket`)."""
