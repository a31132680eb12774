% The Prolog side's physical limit for the bridge: a bare SWI-Prolog process that reads one term
% per line on stdin (written in the bridge's conventions, ended by a full stop) and writes one
% answer term per line, with nothing else in between: no dispatch, no JSON.
:- initialization(main, main).

main :-
    set_stream(user_input, encoding(utf8)),
    set_stream(user_output, encoding(utf8)),
    set_stream(user_output, buffer(full)),
    echo_terms.

echo_terms :-
    read_term(user_input, Term, []),
    (   Term == end_of_file
    ->  true
    ;   write_canonical(user_output, answer(Term)), nl(user_output), flush_output(user_output),
        echo_terms
    ).
