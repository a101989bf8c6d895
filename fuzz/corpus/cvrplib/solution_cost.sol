Route #1: 1 5
Route #2: 2 3 4
Cost 412
