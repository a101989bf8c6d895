Route #1: 1 1 9
Route #2:
Cost -5
