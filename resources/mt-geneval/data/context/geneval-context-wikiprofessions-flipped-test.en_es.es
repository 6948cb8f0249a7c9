Más tarde, el cirujano abrió una clínica en Nantes.
La violinista hizo una gira por Europa durante una década.
El autor escribió doce novelas.
La economista asesoró más tarde al gobierno.
El maestro se jubiló en 2001.
El pintor expuso en Madrid y en Roma.
