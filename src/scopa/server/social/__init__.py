"""Challenges and friends (issue 23, item 2): who is online (:mod:`.presence`), the person's
socket ``/ws/me`` (:mod:`.feed`), follows, blocks and challenges over HTTP (:mod:`.routes`),
and the challenges themselves (:mod:`.challenges`, kept in :mod:`.book`). What is stored
(follows, blocks, whom one takes challenges from) is in :mod:`.queries`."""
