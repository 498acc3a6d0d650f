// Runs before the page paints: applies the theme the reader chose last,
// or the system's when the site sets none.
(function(){var d=document.documentElement;try{var t=localStorage.getItem("quire-theme");if(t==="light"||t==="dark"){d.setAttribute("data-theme",t);return}}catch(e){}if(!d.getAttribute("data-theme")){d.setAttribute("data-theme",matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light")}})();
