/*
 * CEL's expression syntax, written for kubekit from the CEL language definition
 * (https://github.com/google/cel-spec/blob/master/doc/langdef.md, "Syntax": its EBNF, the lexis
 * below it, operator precedence and reserved words) and CEL's optional-syntax extension
 * (`a.?f`, `a[?i]`, `[?e]`, `{?k: v}`, `T{?f: v}`), with backquoted field names (`a.`b-c``).
 *
 * kubekit uses it only to find syntax errors and word them as kube-apiserver does, so what it must
 * share with the apiserver's CEL parser is what the messages show: the display names of the tokens,
 * their order inside an `expecting {...}` set (ANTLR lists a set by token type, that is by the order
 * of the token rules below), and where the parser chooses between alternatives (which decides
 * between `no viable alternative`, `mismatched input` and `extraneous input`). The token names and
 * order, and the characters a backquoted name may hold, are taken from the apiserver's recorded
 * answers (test/fixtures/syntax-errors.json); the rules follow the specification's productions,
 * except where the apiserver's recursion limit shows a different nesting of rules (relation,
 * arithmetic below), and with them every recorded answer matches (test/syntaxErrors.test.ts).
 *
 * Generate with ./generate.sh (ANTLR 4.13.1).
 */
grammar Cel;

// ---------------------------------------------------------------------------------------------
// Parser. The productions of the specification, lowest precedence first.

// The whole source is one expression.
celSource
    : body=expr EOF
    ;

// Expr = ConditionalOr ["?" ConditionalOr ":" Expr] ;
expr
    : test=disjunction (question='?' whenTrue=disjunction ':' whenFalse=expr)?
    ;

// ConditionalOr = [ConditionalOr "||"] ConditionalAnd ;
disjunction
    : head=conjunction (ops+='||' tail+=conjunction)*
    ;

// ConditionalAnd = [ConditionalAnd "&&"] Relation ;
conjunction
    : head=relation (ops+='&&' tail+=relation)*
    ;

// Relation = [Relation Relop] Addition ;
// Written as ANTLR's left-recursive binary form, whose right operand is the rule itself at a higher
// precedence: parsing `a < (b < c)` enters this rule twice per level, and the apiserver's recursion
// limit (250 entries of one rule) is reached after 125 such levels, as on a cluster.
relation
    : arithmetic                                                                          # relationOperand
    | lhs=relation op=('<' | '<=' | '>=' | '>' | '==' | '!=' | 'in') rhs=relation         # comparison
    ;

// Addition = [Addition ("+" | "-")] Multiplication ;
// Multiplication = [Multiplication ("*" | "/" | "%")] Unary ;
// One rule for both levels, each alternative a precedence (the apiserver's recursion limit counts
// `a * (b * c)` and `a + (b + c)` against one rule, so they are one rule here too).
arithmetic
    : unary                                                          # arithmeticOperand
    | lhs=arithmetic op=('*' | '/' | '%') rhs=arithmetic             # product
    | lhs=arithmetic op=('+' | '-') rhs=arithmetic                   # sum
    ;

// Unary = Member | "!" {"!"} Member | "-" {"-"} Member ;
unary
    : member                        # plainMember
    | (ops+='!')+ operand=member    # notChain
    | (ops+='-')+ operand=member    # minusChain
    ;

// Member = Primary | Member "." SELECTOR ["(" [ExprList] ")"] | Member "[" Expr "]" ;
// with the optional forms `a.?f` and `a[?i]`.
member
    : primary                                                               # memberOperand
    | target=member dot='.' opt='?'? field=fieldName                        # selection
    | target=member dot='.' method=IDENTIFIER open='(' args=exprList? ')'   # receiverCall
    | target=member open='[' opt='?'? key=expr ']'                          # subscript
    ;

// Primary = ["."] IDENT ["(" [ExprList] ")"] | "(" Expr ")" | "[" [ExprList] [","] "]"
//         | "{" [MapInits] [","] "}" | ["."] SELECTOR {"." SELECTOR} "{" [FieldInits] [","] "}"
//         | LITERAL ;
primary
    : dot='.'? name=IDENTIFIER                                                           # nameRef
    | dot='.'? name=IDENTIFIER open='(' args=exprList? ')'                               # functionCall
    | '(' inner=expr ')'                                                                 # parens
    | open='[' items=listItems? ','? ']'                                                 # listLiteral
    | open='{' entries=mapEntries? ','? '}'                                              # mapLiteral
    | dot='.'? names+=IDENTIFIER (dots+='.' names+=IDENTIFIER)* open='{' fields=fieldInits? ','? '}'   # messageLiteral
    | literal                                                                            # literalValue
    ;

// ExprList = Expr {"," Expr} ;
exprList
    : items+=expr (',' items+=expr)*
    ;

// The elements of a list literal, each of them possibly optional (`[?e]`).
listItems
    : items+=maybeExpr (',' items+=maybeExpr)*
    ;

maybeExpr
    : opt='?'? value=expr
    ;

// FieldInits = SELECTOR ":" Expr {"," SELECTOR ":" Expr} ; with optional fields (`T{?f: v}`).
fieldInits
    : names+=maybeField colons+=':' values+=expr (',' names+=maybeField colons+=':' values+=expr)*
    ;

maybeField
    : opt='?'? name=fieldName
    ;

// MapInits = Expr ":" Expr {"," Expr ":" Expr} ; with optional entries (`{?k: v}`).
mapEntries
    : keys+=maybeExpr colons+=':' values+=expr (',' keys+=maybeExpr colons+=':' values+=expr)*
    ;

// A field's name: a SELECTOR, or a backquoted one.
fieldName
    : name=IDENTIFIER       # plainName
    | name=ESC_IDENTIFIER   # quotedName
    ;

// LITERAL = INT_LIT | UINT_LIT | FLOAT_LIT | STRING_LIT | BYTES_LIT | BOOL_LIT | NULL_LIT ;
// The minus sign the spec allows in INT_LIT and FLOAT_LIT belongs to the literal here; a minus
// before a uint literal is a negation.
literal
    : sign='-'? value=NUM_INT     # intLit
    | value=NUM_UINT              # uintLit
    | sign='-'? value=NUM_FLOAT   # floatLit
    | value=STRING                # stringLit
    | value=BYTES                 # bytesLit
    | 'true'                      # trueLit
    | 'false'                     # falseLit
    | 'null'                      # nullLit
    ;

// ---------------------------------------------------------------------------------------------
// Lexer. The order of these rules is the order of the token types, which is the order in which
// an `expecting {...}` set lists its tokens.

LBRACKET : '[' ;
RBRACKET : ']' ;
LBRACE : '{' ;
RBRACE : '}' ;
LPAREN : '(' ;
RPAREN : ')' ;
DOT : '.' ;
COMMA : ',' ;
MINUS : '-' ;
EXCLAM : '!' ;
QUESTIONMARK : '?' ;
COLON : ':' ;
PLUS : '+' ;
STAR : '*' ;
SLASH : '/' ;
PERCENT : '%' ;
EQ : '==' ;
NE : '!=' ;
LT : '<' ;
LE : '<=' ;
GE : '>=' ;
GT : '>' ;
IN : 'in' ;
AND : '&&' ;
OR : '||' ;
TRUE : 'true' ;
FALSE : 'false' ;
NULL : 'null' ;

// FLOAT_LIT ::= DIGIT* . DIGIT+ EXPONENT? | DIGIT+ EXPONENT (its sign is the parser's)
NUM_FLOAT
    : Digit* '.' Digit+ Exponent?
    | Digit+ Exponent
    ;

// INT_LIT ::= DIGIT+ | 0x HEXDIGIT+
NUM_INT
    : Digit+
    | '0x' HexDigit+
    ;

// UINT_LIT ::= INT_LIT [uU]
NUM_UINT
    : (Digit+ | '0x' HexDigit+) [uU]
    ;

STRING
    : Quoted
    | [rR] RawQuoted
    ;

// BYTES_LIT ::= [bB] STRING_LIT
BYTES
    : [bB] (Quoted | [rR] RawQuoted)
    ;

// SELECTOR ::= [_a-zA-Z][_a-zA-Z0-9]*; the keywords are the rules above, reserved words are the
// tree builder's to refuse.
IDENTIFIER
    : [_a-zA-Z] [_a-zA-Z0-9]*
    ;

// A field name in backquotes, which may hold characters a SELECTOR cannot.
ESC_IDENTIFIER
    : '`' [_a-zA-Z0-9 ./-]+ '`'
    ;

// WHITESPACE ::= [\t\n\f\r ]+ ; COMMENT ::= '//' ~\n* \n
WHITESPACE : [\t\n\f\r ]+ -> channel(HIDDEN) ;
COMMENT : '//' ~[\n]* -> channel(HIDDEN) ;

fragment Digit : [0-9] ;
fragment HexDigit : [0-9a-fA-F] ;
fragment Exponent : [eE] [+-]? Digit+ ;

// Strings that interpret escapes: one line between " or ', or any lines between """ or '''.
fragment Quoted
    : '"' (Escape | ~[\\"\r\n])* '"'
    | '\'' (Escape | ~[\\'\r\n])* '\''
    | '"""' (Escape | ~[\\])*? '"""'
    | '\'\'\'' (Escape | ~[\\])*? '\'\'\''
    ;

// Strings that keep backslashes as they are.
fragment RawQuoted
    : '"' ~["\r\n]* '"'
    | '\'' ~['\r\n]* '\''
    | '"""' .*? '"""'
    | '\'\'\'' .*? '\'\'\''
    ;

// ESCAPE ::= \ [abfnrtv\?"'`] | \ [xX] HEXDIGIT HEXDIGIT | \ u HEXDIGIT{4} | \ U HEXDIGIT{8}
//          | \ [0-3] [0-7] [0-7]
fragment Escape
    : '\\' [abfnrtv\\?"'`]
    | '\\' [xX] HexDigit HexDigit
    | '\\' 'u' HexDigit HexDigit HexDigit HexDigit
    | '\\' 'U' HexDigit HexDigit HexDigit HexDigit HexDigit HexDigit HexDigit HexDigit
    | '\\' [0-3] [0-7] [0-7]
    ;
