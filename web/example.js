// A small example corpus for the "load an example" button: two families of near-duplicate pages
// (a notice reworded and a recipe with its boilerplate changed) and one page unlike the others.

const notice = `The public library on Harbour Street will close for renovation from the first of March until the
end of June. During this period books can be returned at the community centre on Mill Road, which will
also host the weekly reading group and the children's story hour on Saturday mornings. Members may borrow
up to twelve items at a time and loans will be extended automatically until the library reopens. The
online catalogue, the e-book service and the local history archive remain available around the clock.`;

const recipe = `To make the bread, dissolve the yeast in warm water with a spoonful of honey and leave it for ten
minutes until it foams. Mix the flour and salt in a large bowl, pour in the yeast and the olive oil, and knead
the dough on a floured surface for about ten minutes until it is smooth and elastic. Cover the bowl with a
damp cloth and let the dough rise in a warm place for an hour, then shape it into a loaf, let it rise again
for thirty minutes and bake it at two hundred degrees for thirty five minutes until it sounds hollow.`;

const other = `Tide tables for the coming week show unusually high spring tides on Tuesday and Wednesday evenings.
Harbour users are asked to secure small boats above the upper slipway and to keep the sea wall path clear
for the coastguard vehicles that will patrol the promenade while the warnings are in force.`;

const page = (title, body, footer) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p><footer>${footer}</footer></body></html>`;

/** Returns the example documents as { name, text }. */
export function exampleDocuments() {
  return [
    { name: 'library/notice.html', text: page('Library closure', notice, 'Town council, 2024') },
    { name: 'library/notice-copy.html', text: page('Library closure', notice, 'Town council, 2024') },
    { name: 'library/notice-reworded.html', text: page('Library closed for renovation', notice.replace('twelve items', 'fifteen items').replace('Saturday mornings', 'Sunday mornings'), 'Posted by the town council') },
    { name: 'mirror/notice.html', text: page('LIBRARY CLOSURE', notice.toUpperCase(), 'TOWN COUNCIL, 2024') },
    { name: 'recipes/bread.html', text: page('Simple bread', recipe, 'More recipes every week') },
    { name: 'recipes/bread-print.html', text: page('Simple bread (printable)', recipe.replace('olive oil', 'sunflower oil'), 'Printed from the recipe site; share it with friends') },
    { name: 'harbour/tides.txt', text: other },
  ];
}
