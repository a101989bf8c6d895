Route #1: 1 5
Route #2: 2 4
Route #3: 3 6
Cost 400
