% The physical limit the bridge is measured against: a bare SWI-Prolog process that reads one
% JSON value per line on stdin and writes it back as one line, with nothing else in between.
:- use_module(library(http/json)).
:- initialization(main, main).

main :-
    set_stream(user_input, encoding(utf8)),
    set_stream(user_output, encoding(utf8)),
    echo_lines.

echo_lines :-
    read_line_to_string(user_input, Line),
    (   Line == end_of_file
    ->  true
    ;   open_string(Line, In), json_read(In, Term), close(In),
        json_write(user_output, Term, [width(0)]), nl(user_output), flush_output(user_output),
        echo_lines
    ).
