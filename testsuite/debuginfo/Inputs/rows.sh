# rows.sh OBJ: the rows of OBJ's .debug_line (address, line, column, flags
# beyond is_stmt), without the end_sequence rows: b3c ends a sequence after
# each procedure's code, the assemblers one per section.
llvm-dwarfdump --debug-line "$1" | awk '/^0x/ && !/end_sequence/ { print $1, $2, $3, ($NF == "is_stmt" ? "" : $NF) }'
