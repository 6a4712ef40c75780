"""Talk at the table (issue 23, item 3): quick phrases and free text, the spectators' own
talk, reports to the moderators, and the chat kept with each match."""
