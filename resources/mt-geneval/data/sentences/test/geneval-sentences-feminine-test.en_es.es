Ella trabajó como enfermera en Lyon durante diez años.
La actriz agradeció a sus profesores.
Ella se convirtió en la primera directora del museo en 1921.
De niña, ella quería ser piloto.
"Es una escritora muy cuidadosa", dijo el editor.
La reina y su hermano eran ambos músicos.
