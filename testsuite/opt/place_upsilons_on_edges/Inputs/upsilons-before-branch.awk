# Reads --print-after output; prints "@proc upsilon before a branch" for each
# block that has an Upsilon and ends in a Branch or Switch.
/^proc @/ { proc = $2 }
/^BB#/ { up = 0 }
/= Upsilon\(/ { up = 1 }
/= (Branch|Switch)\(/ { if (up) print proc, "upsilon before a branch" }
