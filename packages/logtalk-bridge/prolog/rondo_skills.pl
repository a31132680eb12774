/** <module> Skills (the io.modelcontextprotocol/skills extension, SEP-2640) a provider declares with the
    optional hook skills/1, a list of

        skill(Name, Properties)   a skill defined here; Properties:
                                      description(Text)        (required)
                                      instructions(Text)       the body of SKILL.md (required)
                                      file(Path, Text)         a further file, Path inside the skill
                                      frontmatter({K-V, ...})  further frontmatter members
        skill_directory(Dir)      a directory of skills (SKILL.md folders), relative to the
                                  file of the skills/1 clause

    skills_json/1 gives them to Node; skill_problem/2 says what is wrong with one item, for the
    checks run at load (each reported with the file and line of the skills/1 clause).
*/
:- module(rondo_skills, [skills_json/1, skill_problem/3, skills_file/1]).

:- use_module(rondo_provider).
:- use_module(rondo_json, [curly_pairs/2]).
:- use_module(library(lists)).

%!  skills_json(-List) is det.
%   The declared skills as JSON objects ([] without the hook).
skills_json(J) :-
    % A skills/1 that raises serves no skills; the start-up check reports what it raised.
    (   catch(hook(skills(Items)), _, fail), is_list(Items)
    ->  skills_file(File),
        include([I]>>( \+ skill_problem(I, File, _) ), Items, Good),
        maplist(skill_json(File), Good, J)
    ;   J = []
    ).

skill_json(_, skill(Name, Props), J) :-
    text_atom(Name, N),
    memberchk(description(D), Props), text_atom(D, DA),
    memberchk(instructions(I), Props), text_atom(I, IA),
    findall(F, ( member(file(P, T), Props), text_atom(P, PA), text_atom(T, TA),
                 curly_pairs(F, [path-PA, text-TA]) ), Files),
    ( memberchk(frontmatter(FM), Props) -> true ; FM = {} ),
    curly_pairs(J, [name-N, description-DA, instructions-IA, frontmatter-FM, files-Files]).
skill_json(File, skill_directory(Dir), J) :-
    directory_of(File, Dir, Abs),
    curly_pairs(J, [directory-Abs]).

%!  skill_problem(+Item, +File, -Message) is semidet.
%   True when Item of skills/1 cannot be served, with a one-line message saying what and what
%   was expected. File is the file of the skills/1 clause (for relative directories).
skill_problem(skill(Name, Props), _, M) :- !,
    (   \+ text(Name)
    ->  format(string(M), 'skill name ~q is not an atom; expected skill(Name, Properties)', [Name])
    ;   text_atom(Name, N), \+ skill_name(N)
    ->  format(string(M), 'skill name ~q breaks the naming rule; expected 1-64 lower-case letters, digits and single hyphens, not at either end', [N])
    ;   \+ is_list(Props)
    ->  format(string(M), 'skill ~w: properties ~q are not a list; expected [description(Text), instructions(Text), ...]', [Name, Props])
    ;   member(P, Props), property_problem(P, What)
    ->  format(string(M), 'skill ~w: ~w', [Name, What])
    ;   member(Required, [description, instructions]), Probe =.. [Required, _], \+ memberchk(Probe, Props)
    ->  format(string(M), 'skill ~w has no ~w(Text); expected one', [Name, Required])
    ).
skill_problem(skill_directory(Dir), File, M) :- !,
    (   \+ text(Dir)
    ->  format(string(M), 'skill_directory(~q): expected an atom naming a directory', [Dir])
    ;   \+ directory_of(File, Dir, _)
    ->  format(string(M), 'skill_directory(~q): no such directory (relative to ~w)', [Dir, File])
    ).
skill_problem(Item, _, M) :-
    format(string(M), 'skills/1 item ~q is neither skill(Name, Properties) nor skill_directory(Dir)', [Item]).

property_problem(description(T), 'description(Text) needs a non-empty text') :- \+ nonempty_text(T), !.
property_problem(instructions(T), 'instructions(Text) needs a text') :- \+ text(T), !.
property_problem(frontmatter(C), 'frontmatter(Members) needs a curly term {Key-Value, ...}') :-
    \+ ( C == {} ; C = {_} ), !.
property_problem(file(P, T), What) :- !, file_problem(P, T, What).
property_problem(P, What) :-
    \+ memberchk(P, [description(_), instructions(_), frontmatter(_), file(_, _)]),
    format(string(What), 'unknown property ~q; expected description/1, instructions/1, file/2 or frontmatter/1', [P]).

file_problem(P, _, What) :- \+ text(P), !,
    format(string(What), 'file(~q, _): the path is not an atom', [P]).
file_problem(_, T, What) :- \+ text(T), !,
    format(string(What), 'file(_, ~q): the content is not a text', [T]).
file_problem(P, _, What) :- path_problem(P, Why), !,
    format(string(What), 'file(~q, _): ~w', [P, Why]).

% A path inside the skill: relative, no . or .. or empty segment, no NUL or backslash.
path_problem(P, 'the path contains a NUL') :- sub_atom(P, _, _, _, '\0\'), !.
path_problem(P, 'the path is absolute; expected one inside the skill') :- sub_atom(P, 0, _, _, /), !.
path_problem(P, 'the path holds a backslash') :- sub_atom(P, _, _, _, \), !.
path_problem(P, Why) :-
    text_atom(P, A), atomic_list_concat(Segments, /, A),
    member(S, Segments), memberchk(S, ['', '.', '..']), !,
    format(string(Why), 'the path escapes the skill''s root (segment "~w")', [S]).
path_problem('SKILL.md', 'SKILL.md is written from description/1 and instructions/1').

% The Agent Skills naming rule: 1-64 of a-z, 0-9 and -, no hyphen first, last or twice.
skill_name(N) :-
    atom_codes(N, Cs), length(Cs, L), L >= 1, L =< 64,
    forall(member(C, Cs), ( between(0'a, 0'z, C) ; between(0'0, 0'9, C) ; C =:= 0'- )),
    Cs = [F|_], F =\= 0'-, last(Cs, La), La =\= 0'-,
    \+ append(_, [0'-, 0'-|_], Cs).

text(T) :- atom(T), ! ; string(T).
nonempty_text(T) :- text(T), T \== '', T \== "".
text_atom(T, A) :- atom(T), !, A = T.
text_atom(T, A) :- atom_string(A, T).

%!  skills_file(-File) is det.
%   The file holding the skills/1 clause (the object's file for Logtalk): relative directories
%   are resolved against it.
skills_file(File) :-
    provider(Flavour, Name),
    (   Flavour == logtalk
    ->  provider_file(File)
    ;   predicate_property(Name:skills(_), file(File))
    ), !.
skills_file(File) :- working_directory(Dir, Dir), atom_concat(Dir, 'skills', File).

directory_of(File, Dir, Abs) :-
    file_directory_name(File, Base),
    absolute_file_name(Dir, Abs, [relative_to(Base), file_type(directory), file_errors(fail)]).
