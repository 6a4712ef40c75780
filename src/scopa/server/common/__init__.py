"""The card room's floor: what every part of the room shares and that imports no feature and
no table code (docs/design.md, "The card room's floors")."""
