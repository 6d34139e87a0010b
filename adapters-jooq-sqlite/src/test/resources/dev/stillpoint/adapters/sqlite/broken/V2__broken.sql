-- A migration whose second statement fails: the first must be rolled back with it.
CREATE TABLE sp_half_done (x INTEGER);
INSERT INTO no_such_table VALUES (1);
